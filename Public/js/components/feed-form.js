// "Add a podcast": one box for a name or a feed URL. A name searches the podcast directory as it
// is typed (components/directory-search.js shows the results, and Popular for an empty box); a
// feed URL is subscribed to with Enter or Add — POST /api/subscriptions, progress while the
// server fetches the feed, the server's own error message when it fails, fresh lists on success.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { postJSON } from '../core/api.js';
import { library } from '../core/library.js';
import { looksLikeFeedURL } from '../core/directory.js';
import { wireDirectory } from './directory-search.js';

const LABELS = { search: 'Search', add: 'Add' };

/** The form, with the same markup as the first paint. */
export function buildFeedForm() {
  return h('form', { class: 'add-feed', id: 'add-feed', novalidate: true, dataset: { mode: 'search' } },
    h('label', { class: 'add-feed-label', for: 'feed-url' }, 'Add a podcast'),
    h('p', { class: 'visually-hidden', id: 'feed-url-help' },
      'Type a name to search the podcast directory, or paste the feed URL of a podcast and press Enter.'),
    h('div', { class: 'add-feed-row' },
      h('input', {
        id: 'feed-url', name: 'url', type: 'search', autocomplete: 'off', spellcheck: 'false',
        enterkeyhint: 'search', placeholder: 'Podcast name or feed URL',
        'aria-describedby': 'feed-url-help', 'aria-controls': 'directory',
      }),
      h('button', { type: 'submit', class: 'button button-primary add-feed-submit' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }), icon('search'), icon('plus'),
        h('span', { class: 'button-label' }, LABELS.search))),
    h('p', { class: 'form-message', role: 'status' }),
    h('section', { class: 'directory', id: 'directory', 'aria-labelledby': 'directory-title', hidden: true }));
}

/** Makes `form` (built above or server-rendered) search and subscribe through the API; returns
 *  a function that stops its timers and requests (the view calls it when it goes). */
export function wireFeedForm(form) {
  const input = form.querySelector('input[name="url"]');
  const button = form.querySelector('button[type="submit"]');
  const label = button.querySelector('.button-label');
  const message = form.querySelector('.form-message');
  const directory = wireDirectory(form.querySelector('.directory'), input);

  const say = (text, kind) => {
    message.textContent = text;
    message.className = `form-message${kind ? ` is-${kind}` : ''}`;
  };
  // The button says what Enter does with what is typed: search for a name, add a feed.
  const showMode = () => {
    const mode = looksLikeFeedURL(input.value) ? 'add' : 'search';
    form.dataset.mode = mode;
    input.setAttribute('enterkeyhint', mode === 'add' ? 'go' : 'search');
    if (form.getAttribute('aria-busy') !== 'true') label.textContent = LABELS[mode];
  };

  input.addEventListener('focus', () => directory.open());
  input.addEventListener('input', () => {
    showMode();
    if (!message.classList.contains('is-progress')) say('');
    directory.open();
    directory.update();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    let url = input.value.trim();
    if (!looksLikeFeedURL(url)) {
      // A name (or nothing): search now rather than after the pause.
      directory.open();
      directory.update({ now: true });
      return;
    }
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `https://${url}`;
    form.setAttribute('aria-busy', 'true');
    button.disabled = true;
    label.textContent = 'Adding…';
    say('Fetching the feed…', 'progress');
    try {
      const { podcast } = await postJSON('/api/subscriptions', { url });
      input.value = '';
      say(`Added “${podcast?.title ?? url}”.`, 'success');
      await library.load().catch(() => {});
    } catch (error) {
      say(error.message, 'error');
      input.focus();
    } finally {
      form.removeAttribute('aria-busy');
      button.disabled = false;
      showMode();
      directory.update();
    }
  });

  showMode();
  return () => directory.destroy();
}
