// The small overflow menu on an episode row: "Play next", "Add to queue", "Add to playlist…"
// (components/playlist-picker.js) and "Mark as played" /
// "Mark as unplayed" (following the row's played state). One menu
// element, built on demand and shared by every row; it is a fixed-position popup next to
// the row's "More" button, closed by Escape, a click elsewhere, or choosing an item.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { playlistItem } from './playlist-picker.js';

let menu = null;
let opener = null;

/** The items for an episode (also used on the episode page as plain buttons). */
export function queueItems(id, title, className, role) {
  return [
    h('button', { type: 'button', class: className, role, dataset: { action: 'queue-next', episodeId: id, title } },
      icon('playNext'), h('span', { class: 'button-label' }, 'Play next')),
    h('button', { type: 'button', class: className, role, dataset: { action: 'queue-add', episodeId: id, title } },
      icon('addQueue'), h('span', { class: 'button-label' }, 'Add to queue')),
  ];
}

/** The played toggle: "Mark as played", or "Mark as unplayed" when `played`; data-played is the
 *  state it shows, choosing it asks for the other one. In the menu it is a menuitemcheckbox
 *  (aria-checked = played), on the episode page a plain button. */
export function markItem(id, title, played, className, role) {
  const button = h('button', {
    type: 'button',
    class: `${className} mark-played`,
    role: role === 'menuitem' ? 'menuitemcheckbox' : role,
    dataset: { action: 'mark', episodeId: id, title },
  }, icon('check'), h('span', { class: 'button-label' }));
  setMarkItem(button, played);
  return button;
}

/** Sets a played toggle's label (and state) to follow `played`. */
export function setMarkItem(button, played) {
  button.dataset.played = played ? 'true' : 'false';
  button.querySelector('.button-label').textContent = played ? 'Mark as unplayed' : 'Mark as played';
  if (button.getAttribute('role') === 'menuitemcheckbox') button.setAttribute('aria-checked', String(played));
}

/** Opens the menu for the row whose "More" button is `button` (or closes it if open there). */
export function toggleRowMenu(button) {
  if (menu && opener === button) { closeRowMenu(); return; }
  closeRowMenu();
  opener = button;
  const id = button.dataset.episodeId;
  const title = button.dataset.title ?? '';
  const row = button.closest('.episode');
  const played = row ? row.classList.contains('is-played') : button.dataset.played === 'true';
  menu = h('div', { class: 'row-menu', role: 'menu', 'aria-label': `Actions for ${title || 'episode'}` },
    queueItems(id, title, 'row-menu-item', 'menuitem'),
    playlistItem(id, title, 'row-menu-item', 'menuitem'),
    markItem(id, title, played, 'row-menu-item', 'menuitem'));
  menu.addEventListener('keydown', onMenuKey);
  document.body.append(menu);
  button.setAttribute('aria-expanded', 'true');
  place();
  menu.querySelector('button').focus();
}

/** Closes the menu; `refocus` returns focus to its button. */
export function closeRowMenu(refocus = false) {
  if (!menu) return;
  menu.remove();
  menu = null;
  opener?.setAttribute('aria-expanded', 'false');
  if (refocus && opener?.isConnected) opener.focus();
  opener = null;
}

function place() {
  const r = opener.getBoundingClientRect();
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  const left = Math.max(8, Math.min(r.right - width, window.innerWidth - width - 8));
  const below = r.bottom + 4;
  const top = below + height > window.innerHeight - 8 ? Math.max(8, r.top - height - 4) : below;
  menu.style.left = `${left}px`;
  menu.style.top = `${top}px`;
}

function onMenuKey(event) {
  const items = [...menu.querySelectorAll('button')];
  const at = items.indexOf(document.activeElement);
  if (event.key === 'Escape') { event.preventDefault(); event.stopPropagation(); closeRowMenu(true); }
  else if (event.key === 'ArrowDown') { event.preventDefault(); items[(at + 1) % items.length].focus(); }
  else if (event.key === 'ArrowUp') { event.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
  else if (event.key === 'Tab') closeRowMenu();
}

document.addEventListener('click', (event) => {
  if (!menu) return;
  if (event.target.closest?.('[data-action="queue-menu"]')) return; // a More button toggles it itself
  // An item's action runs in the delegated handler (bubble); close after it.
  if (menu.contains(event.target) && !event.target.closest('button')) return;
  queueMicrotask(() => closeRowMenu(menu?.contains(event.target)));
});
window.addEventListener('resize', () => closeRowMenu());
window.addEventListener('scroll', () => { if (menu) place(); }, { passive: true });
window.addEventListener('popstate', () => closeRowMenu());
