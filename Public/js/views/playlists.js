// Playlists view `/playlists`: every named playlist (name, size, length) with Play, Rename and
// Delete, and New playlist. What is shown is what the server last sent: edits go out as
// playlist.* commands and come back through the `playlists` refetch, here and in every client.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { plural, durationText } from '../core/format.js';
import { toast } from '../core/toast.js';
import { playlists, command } from '../core/playlists.js';
import { confirmDialog } from '../components/confirm.js';
import { nameDialog } from '../components/name-dialog.js';
import { playlistIcon } from '../components/playlist-icons.js';
import { Cmd } from '../core/commands.js';

export const playlistsView = {
  mount(root) {
    const list = h('ul', { class: 'playlist-list', 'aria-label': 'Playlists' });
    const empty = h('p', { class: 'empty' }, 'No playlists yet. Make one here, or use “Add to playlist…” in any episode’s menu.');
    const create = h('button', { type: 'button', class: 'button button-small playlist-new' },
      icon('plus'), h('span', { class: 'button-label' }, 'New playlist'));
    root.replaceChildren(
      h('div', { class: 'section-head playlists-head' }, h('h1', { class: 'view-title', tabindex: '-1' }, 'Playlists'), create),
      list, empty);

    const render = () => {
      list.replaceChildren(...playlists.list.map(card));
      list.hidden = playlists.list.length === 0;
      empty.hidden = !playlists.loaded || playlists.list.length !== 0;
    };

    create.addEventListener('click', () => {
      nameDialog({
        title: 'New playlist',
        confirm: 'Create',
        submit: (name) => command(Cmd.playlistCreate, { name }),
      }).then((name) => { if (name) toast(`Made “${name}”`); });
    });

    list.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-playlist-action]');
      if (!button) return;
      const playlist = playlists.byId(button.closest('[data-playlist-id]').dataset.playlistId);
      if (playlist) act(button.dataset.playlistAction, playlist);
    });

    const stop = playlists.subscribe(render);
    render();
    playlists.load().catch((error) => toast(error.message, 'error'));
    return { title: 'Playlists', destroy: stop };
  },
};

/** Play, rename or delete `playlist` (shared with the single playlist's view). */
export async function act(action, playlist, { afterDelete } = {}) {
  if (action === 'play') {
    await command(Cmd.playlistPlay, { playlist: playlist.id }).catch(() => {}); // errors toast by themselves
  } else if (action === 'rename') {
    await nameDialog({
      title: 'Rename playlist',
      value: playlist.name,
      confirm: 'Rename',
      submit: (name) => command(Cmd.playlistRename, { playlist: playlist.id, name }),
    });
  } else if (action === 'delete') {
    const sure = await confirmDialog({
      title: `Delete “${playlist.name}”?`,
      text: 'The playlist goes; its episodes stay in your library.',
      confirm: 'Delete',
    });
    if (!sure) return;
    try {
      await command(Cmd.playlistDelete, { playlist: playlist.id });
      toast(`Deleted “${playlist.name}”`);
      afterDelete?.();
    } catch { /* the error toasts by itself */ }
  }
}

/** "3 episodes · 1h 2m". */
export function playlistFacts(playlist) {
  const count = playlist.count ?? playlist.episodeIds?.length ?? 0;
  const length = durationText(playlist.duration);
  return length ? `${plural(count, 'episode')} · ${length}` : plural(count, 'episode');
}

function card(playlist) {
  const button = (action, iconNode, label) => h('button', {
    type: 'button', class: 'queue-button playlist-action', dataset: { playlistAction: action },
    'aria-label': `${label} ${playlist.name}`,
  }, iconNode);
  const count = playlist.count ?? 0;
  return h('li', { class: 'playlist-card', dataset: { playlistId: playlist.id } },
    h('span', { class: 'playlist-tile', 'aria-hidden': 'true' }, playlistIcon('playlist')),
    h('div', { class: 'playlist-card-body' },
      h('a', { class: 'playlist-name', href: `/playlist/${playlist.id}` }, playlist.name),
      h('p', { class: 'playlist-facts' }, playlistFacts(playlist))),
    h('div', { class: 'playlist-actions' },
      h('button', {
        type: 'button', class: 'play-button playlist-play', dataset: { playlistAction: 'play' },
        'aria-label': `Play ${playlist.name}`, disabled: count === 0,
      }, icon('play')),
      button('rename', playlistIcon('rename'), 'Rename'),
      button('delete', playlistIcon('trash'), 'Delete')));
}
