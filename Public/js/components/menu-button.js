// What the player's dialog buttons share (the sleep timer's, the alarm's): a button with an icon
// and a label that says what is set, and a dialog that gives focus back to whoever opened it.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';

/** A button (`.{key}-button`) opening a dialog with `open`; `show(text, set, label)` says what is
 *  set (`is-set` marks it) and names it for screen readers. */
export function menuButton(key, iconName, idle, open) {
  const text = h('span', { class: `${key}-button-label` }, idle);
  const el = h('button', { type: 'button', class: `button ${key}-button`, 'aria-haspopup': 'dialog', on: { click: open } },
    icon(iconName), text);
  const show = (words, set, label) => {
    if (text.textContent !== words) text.textContent = words;
    el.classList.toggle('is-set', set);
    el.setAttribute('aria-label', label);
  };
  return { el, show };
}

/** When `dialog` closes: `then()`, and focus goes back to `opener()` if it is still in the page. */
export function focusBackOnClose(dialog, opener, then) {
  dialog.addEventListener('close', () => {
    then();
    const element = opener();
    if (element instanceof HTMLElement && element.isConnected) element.focus({ preventScroll: true });
  });
}
