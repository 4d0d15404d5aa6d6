// Directory settings, at the foot of the directory panel: which directory answers ("Using Apple
// Podcasts (iTunes)" or "Using Podcast Index (key UXKC…)") and, behind a disclosure, a Podcast
// Index API key and secret to save or clear (PUT /api/directory/settings). The server keeps
// them and signs its requests; the secret field is a password field, emptied once saved, and
// the server never sends the secret back. Not a <form>: it sits inside the add-podcast form, so
// Enter in its fields is caught here and saves.

import { h, externalLink } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { directorySettings, directoryText } from '../core/directory.js';

/** Builds the settings; returns `{el, destroy}`. */
export function buildDirectorySettings() {
  const source = h('p', { class: 'directory-source' });
  const key = h('input', {
    id: 'podcastindex-key', class: 'directory-field-input', type: 'text', autocomplete: 'off',
    spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': 'podcastindex-help',
  });
  const secret = h('input', {
    id: 'podcastindex-secret', class: 'directory-field-input', type: 'password', autocomplete: 'new-password',
    spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': 'podcastindex-help',
  });
  const save = h('button', { type: 'button', class: 'button button-small button-primary directory-save' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'button-label' }, 'Save'));
  const clear = h('button', { type: 'button', class: 'button button-small directory-clear' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'button-label' }, 'Clear'));
  const origin = h('p', { class: 'directory-origin', hidden: true });
  const message = h('p', { class: 'directory-settings-message', role: 'status' });
  const details = h('details', { class: 'directory-settings' },
    h('summary', {}, h('span', {}, 'Directory settings'), icon('chevronDown')),
    h('div', { class: 'directory-settings-body', role: 'group', 'aria-label': 'Podcast Index API key' },
      h('p', { class: 'directory-help', id: 'podcastindex-help' },
        'Search Podcast Index instead of Apple Podcasts with your own API key and secret. ',
        'Earshot keeps them and signs its searches; the secret is never shown again.'),
      h('p', { class: 'directory-help-link' },
        externalLink('https://api.podcastindex.org/', 'Get a free key at api.podcastindex.org')),
      origin,
      h('div', { class: 'directory-field' }, h('label', { for: 'podcastindex-key' }, 'API key'), key),
      h('div', { class: 'directory-field' }, h('label', { for: 'podcastindex-secret' }, 'API secret'), secret),
      h('div', { class: 'directory-settings-actions' }, save, clear),
      message));
  const el = h('div', { class: 'directory-foot' }, source, details);

  const say = (text, kind = '') => {
    message.textContent = text;
    message.className = `directory-settings-message${kind ? ` is-${kind}` : ''}`;
  };

  const render = (value) => {
    el.hidden = !directorySettings.available;
    source.textContent = value ? directoryText(value) : '';
    const index = value?.podcastIndex;
    const saved = index?.configured && index.from === 'settings';
    clear.hidden = !saved;
    origin.hidden = !(index?.configured && index.from === 'environment');
    origin.textContent = origin.hidden ? ''
      : `The key ${index.key ?? ''} comes from the server's environment (EARSHOT_PODCASTINDEX_KEY); a key saved here is used instead.`;
    key.placeholder = saved && index.key ? `Saved: ${index.key}` : '';
    secret.placeholder = saved ? 'Saved (not shown)' : '';
  };

  const busy = (button, on) => {
    for (const b of [save, clear]) b.disabled = on;
    if (on) button.setAttribute('aria-busy', 'true');
    else button.removeAttribute('aria-busy');
  };

  const store = async (button, keyText, secretText, done) => {
    if (save.disabled) return;
    busy(button, true);
    say('Saving…', 'progress');
    try {
      const value = await directorySettings.save(keyText, secretText);
      key.value = '';
      secret.value = '';
      say(`${done} ${directoryText(value)}.`, 'success');
    } catch (error) {
      say(error.message, 'error');
    } finally {
      busy(button, false);
    }
  };

  save.addEventListener('click', () => {
    const keyText = key.value.trim();
    const secretText = secret.value.trim();
    if (keyText === '' || secretText === '') {
      say('Enter both the API key and the API secret.', 'error');
      (keyText === '' ? key : secret).focus();
      return;
    }
    store(save, keyText, secretText, 'Saved.');
  });
  clear.addEventListener('click', () => store(clear, '', '', 'Cleared.'));
  for (const field of [key, secret]) {
    field.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault(); // not the add-podcast form's submit
      save.click();
    });
  }

  const stop = directorySettings.subscribe(render);
  render(directorySettings.value);
  return { el, destroy: stop };
}
