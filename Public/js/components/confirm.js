// A confirm step for things that cannot be undone with one tap (unsubscribing): a modal
// <dialog> — focus moves into it and comes back, Esc and a tap outside cancel, both answers
// are full-size buttons. Not window.confirm, which phones render badly and tests cannot style.

import { h } from '../core/dom.js';

let counter = 0;

/** Asks; resolves true when the listener confirms, false otherwise. `confirm` labels the
 *  confirming button (a verb: "Unsubscribe"). */
export function confirmDialog({ title, text, confirm, cancel = 'Cancel' }) {
  const id = `confirm-${++counter}`;
  const opener = document.activeElement;
  const no = h('button', { type: 'button', class: 'button confirm-cancel' }, cancel);
  const yes = h('button', { type: 'button', class: 'button button-danger confirm-ok' }, confirm);
  const dialog = h('dialog', { class: 'dialog confirm-dialog', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-text` },
    h('h2', { id: `${id}-title` }, title),
    text ? h('p', { id: `${id}-text`, class: 'confirm-text' }, text) : null,
    h('div', { class: 'dialog-actions' }, no, yes));
  document.body.append(dialog);
  dialog.showModal();
  no.focus(); // the safe answer is the default one

  return new Promise((resolve) => {
    const finish = dialogFinisher(dialog, opener, resolve);
    no.addEventListener('click', () => finish(false));
    yes.addEventListener('click', () => finish(true));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(false);
    });
    // A tap on the backdrop (outside the box) cancels.
    dialog.addEventListener('click', (event) => {
      if (event.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
      if (!inside) finish(false);
    });
  });
}

/** The one way a modal dialog ends: once only, closed and removed, focus back on what opened it,
 *  then `resolve(answer)`. Shared by every dialog the app opens. */
export function dialogFinisher(dialog, opener, resolve) {
  let done = false;
  return (answer) => {
    if (done) return;
    done = true;
    dialog.close();
    dialog.remove();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    resolve(answer);
  };
}
