// "Add a podcast" form: POST /api/subscriptions, progress while the server fetches
// the feed, the server's own error message when it fails, fresh lists on success.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { postJSON } from '../core/api.js';
import { library } from '../core/library.js';

/** The form, with the same markup as the first paint. */
export function buildFeedForm() {
  return h('form', { class: 'add-feed', id: 'add-feed', novalidate: true },
    h('label', { class: 'add-feed-label', for: 'feed-url' }, 'Add a podcast by its feed URL'),
    h('div', { class: 'add-feed-row' },
      h('input', {
        id: 'feed-url', name: 'url', type: 'url', inputmode: 'url', autocomplete: 'off',
        spellcheck: 'false', placeholder: 'https://example.com/feed.xml', required: true,
      }),
      h('button', { type: 'submit', class: 'button button-primary' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }), icon('plus'), h('span', { class: 'button-label' }, 'Add'))),
    h('p', { class: 'form-message', role: 'status' }));
}

/** Makes `form` (built above or server-rendered) submit through the API. */
export function wireFeedForm(form) {
  const input = form.querySelector('input[name="url"]');
  const button = form.querySelector('button[type="submit"]');
  const label = button.querySelector('.button-label');
  const message = form.querySelector('.form-message');

  const say = (text, kind) => {
    message.textContent = text;
    message.className = `form-message${kind ? ` is-${kind}` : ''}`;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    let url = input.value.trim();
    if (url === '') {
      say('Enter the address of a podcast feed.', 'error');
      input.focus();
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
      label.textContent = 'Add';
    }
  });
}
