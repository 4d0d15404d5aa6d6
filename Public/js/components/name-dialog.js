// Asks for a playlist's name in a modal <dialog> (create and rename): one text field, the
// server's answer shown in the dialog when it refuses (a name already taken, say), Esc or
// Cancel to leave. `submit(name)` does the work and rejects with a message to show.

import { h } from '../core/dom.js';
import { dialogFinisher } from './confirm.js';

let counter = 0;
/** The most characters a name may have (PlaylistName.maxLength on the server). */
export const NAME_MAX = 100;

/** Opens the dialog; resolves with the name once `submit(name)` resolved, or null when cancelled. */
export function nameDialog({ title, label = 'Name', value = '', confirm, submit }) {
  const id = `name-dialog-${++counter}`;
  const opener = document.activeElement;
  const input = h('input', {
    id: `${id}-input`, class: 'name-input', type: 'text', value, maxlength: String(NAME_MAX),
    autocomplete: 'off', required: true, 'aria-describedby': `${id}-message`,
  });
  const message = h('p', { id: `${id}-message`, class: 'form-message', role: 'alert' });
  const cancel = h('button', { type: 'button', class: 'button name-cancel' }, 'Cancel');
  const ok = h('button', { type: 'submit', class: 'button button-primary name-ok' }, confirm);
  const form = h('form', { class: 'name-form', novalidate: true },
    h('label', { class: 'name-label', for: input.id }, label), input, message,
    h('div', { class: 'dialog-actions' }, cancel, ok));
  const dialog = h('dialog', { class: 'dialog name-dialog', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title), form);
  document.body.append(dialog);
  dialog.showModal();
  input.focus();
  input.select();

  return new Promise((resolve) => {
    const finish = dialogFinisher(dialog, opener, resolve);
    cancel.addEventListener('click', () => finish(null));
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(null); });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = input.value.trim().replace(/\s+/g, ' ');
      if (!name) {
        showError('Give the playlist a name.');
        return;
      }
      ok.disabled = true;
      try {
        await submit(name);
        finish(name);
      } catch (error) {
        showError(error.message);
      } finally {
        ok.disabled = false;
      }
    });
    function showError(text) {
      message.textContent = text;
      message.className = 'form-message is-error';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  });
}
