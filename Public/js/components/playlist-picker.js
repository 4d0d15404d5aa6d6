// "Add to playlist…": the item in every episode row's menu and on the episode page, and the
// modal it opens — the playlists (those already holding the episode marked and not
// choosable), and a field to make a new playlist with the episode in it. Choosing sends the
// playlist.* command; the dialog closes once the server took it.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { plural } from '../core/format.js';
import { toast } from '../core/toast.js';
import { playlists, command } from '../core/playlists.js';
import { playlistIcon } from './playlist-icons.js';
import { NAME_MAX } from './name-dialog.js';
import { Cmd } from '../core/commands.js';

let counter = 0;

/** The "Add to playlist…" button for an episode (row menu item or episode-page button). */
export function playlistItem(id, title, className, role) {
  return h('button', {
    type: 'button', class: className, role, 'aria-haspopup': 'dialog',
    dataset: { action: 'playlist-add', episodeId: id, title },
  }, playlistIcon('playlistAdd'), h('span', { class: 'button-label' }, 'Add to playlist…'));
}

/** Opens the picker for episode `episode` (its `title` names it in the dialog); focus goes back
 *  to `opener` when it closes. */
export function openPlaylistPicker(episode, title, opener = document.activeElement) {
  const id = `picker-${++counter}`;
  const list = h('ul', { class: 'picker-list', 'aria-label': 'Playlists' });
  const empty = h('p', { class: 'empty picker-empty' }, 'No playlists yet. Make the first one below.');
  const input = h('input', {
    id: `${id}-name`, class: 'name-input', type: 'text', maxlength: String(NAME_MAX), autocomplete: 'off',
    placeholder: 'New playlist name', 'aria-describedby': `${id}-message`,
  });
  const message = h('p', { id: `${id}-message`, class: 'form-message', role: 'alert' });
  const create = h('button', { type: 'submit', class: 'button button-small picker-create' },
    icon('plus'), h('span', { class: 'button-label' }, 'Create'));
  const form = h('form', { class: 'picker-new', novalidate: true },
    h('label', { class: 'name-label', for: input.id }, 'Or make a new playlist with it'),
    h('div', { class: 'picker-new-row' }, input, create), message);
  const close = h('button', { type: 'button', class: 'button picker-close' }, 'Close');
  const dialog = h('dialog', { class: 'dialog picker-dialog', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, 'Add to playlist'),
    h('p', { class: 'picker-episode' }, title || 'Episode'),
    list, empty, form,
    h('div', { class: 'dialog-actions' }, close));
  document.body.append(dialog);
  dialog.showModal();
  close.focus();

  let shown = null; // what is on screen: an identical list is not rebuilt (focus stays put)
  const render = () => {
    const signature = JSON.stringify([playlists.loaded, playlists.list.map((p) => [p.id, p.name, p.count, p.episodeIds?.includes(episode)])]);
    if (signature === shown) return;
    shown = signature;
    list.replaceChildren(...playlists.list.map((playlist) => choice(playlist, episode)));
    list.hidden = playlists.list.length === 0;
    empty.hidden = !playlists.loaded || playlists.list.length !== 0;
  };
  const stop = playlists.subscribe(render);
  render();
  playlists.load().then(() => {
    dialog.dataset.loaded = 'true'; // what is listed is the server's current answer
    // Focus the first playlist that can still take the episode, else the new-name field.
    if (dialog.open && document.activeElement === close) (list.querySelector('button:not([aria-disabled])') ?? input).focus();
  }).catch((error) => showError(error.message));

  let busy = false;
  const finish = () => {
    stop();
    dialog.close();
    dialog.remove();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
  };
  const run = async (work) => {
    if (busy) return;
    busy = true;
    try {
      await work();
      finish();
    } catch (error) {
      showError(error.message);
    } finally {
      busy = false;
    }
  };
  function showError(text) {
    message.textContent = text;
    message.className = 'form-message is-error';
  }

  close.addEventListener('click', finish);
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(); });
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-playlist-id]');
    if (!button || button.hasAttribute('aria-disabled')) return;
    const playlist = playlists.byId(button.dataset.playlistId);
    run(async () => {
      await command(Cmd.playlistAdd, { playlist: Number(button.dataset.playlistId), episode });
      toast(`Added to “${playlist?.name ?? 'playlist'}”: ${title || 'episode'}`);
    });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = input.value.trim().replace(/\s+/g, ' ');
    if (!name) {
      showError('Give the new playlist a name.');
      input.focus();
      return;
    }
    run(async () => {
      await command(Cmd.playlistCreate, { name, episodes: [episode] });
      toast(`Made “${name}” with ${title || 'the episode'}`);
    });
  });
}

/** One playlist in the picker: its name and size; marked and inert when it holds the episode. */
function choice(playlist, episode) {
  const holds = Array.isArray(playlist.episodeIds) && playlist.episodeIds.includes(episode);
  return h('li', {},
    h('button', {
      type: 'button', class: 'picker-choice', dataset: { playlistId: playlist.id },
      'aria-disabled': holds ? 'true' : null,
    },
    holds ? icon('check') : playlistIcon('playlist'),
    h('span', { class: 'picker-name' }, playlist.name),
    h('span', { class: 'picker-meta' }, holds ? 'Already in it' : plural(playlist.count ?? 0, 'episode'))));
}

// One delegated handler for every "Add to playlist…" button, wherever it is.
document.addEventListener('click', (event) => {
  const button = event.target.closest?.('button[data-action="playlist-add"]');
  if (!button) return;
  event.preventDefault();
  // From the row menu (which closes now), focus returns to the row's More button.
  const opener = button.closest('.row-menu') ? document.querySelector('[data-action="queue-menu"][aria-expanded="true"]') : button;
  openPlaylistPicker(Number(button.dataset.episodeId), button.dataset.title ?? '', opener ?? button);
});
