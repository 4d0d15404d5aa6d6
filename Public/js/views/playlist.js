// One playlist `/playlist/{id}`: its name and size, Play (Up Next becomes the playlist), Rename,
// Delete, and its episodes in order, each with play (the playlist from that episode), move up /
// move down and remove. Refetched from GET /api/playlists/{id} on every `playlists` or
// `library` message, so another client's edit shows at once.

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { getJSON } from '../core/api.js';
import { dateText, dateISO, durationText } from '../core/format.js';
import { player } from '../core/player-state.js';
import { router } from '../core/router.js';
import { socket } from '../core/socket.js';
import { Cmd, Msg } from '../core/commands.js';
import { command } from '../core/playlists.js';
import { equalizer, progressBar } from '../components/episode-row.js';
import { markNowPlaying } from '../components/now-playing.js';
import { playlistIcon } from '../components/playlist-icons.js';
import { act, playlistFacts } from './playlists.js';
import { problem } from './problem.js';

export const playlistView = {
  async mount(root, [id], isCurrent) {
    let data;
    try {
      data = await getJSON(`/api/playlists/${id}`);
    } catch (error) {
      if (isCurrent()) root.replaceChildren(...missing(error));
      return { title: 'Not found' };
    }
    if (!isCurrent()) return null;

    const title = h('h1', { class: 'view-title', tabindex: '-1' });
    const facts = h('p', { class: 'playlist-facts' });
    const play = h('button', { type: 'button', class: 'button button-primary playlist-play-all', dataset: { playlistAction: 'play' } },
      icon('play'), h('span', { class: 'button-label' }, 'Play'));
    const rename = h('button', { type: 'button', class: 'button button-small', dataset: { playlistAction: 'rename' } },
      playlistIcon('rename'), h('span', { class: 'button-label' }, 'Rename'));
    const remove = h('button', { type: 'button', class: 'button button-small', dataset: { playlistAction: 'delete' } },
      playlistIcon('trash'), h('span', { class: 'button-label' }, 'Delete'));
    const list = h('ol', { class: 'episode-list playlist-items', 'aria-label': 'Episodes' });
    const empty = h('p', { class: 'empty' }, 'No episodes yet. Use “Add to playlist…” in any episode’s menu.');
    const status = h('p', { class: 'visually-hidden', role: 'status' });
    root.replaceChildren(
      h('a', { class: 'back-link', href: '/playlists' }, playlistIcon('back'), h('span', {}, 'Playlists')),
      h('header', { class: 'playlist-header' },
        h('span', { class: 'playlist-tile playlist-tile-large', 'aria-hidden': 'true' }, playlistIcon('playlist')),
        h('div', { class: 'playlist-header-text' }, title, facts),
        h('div', { class: 'playlist-header-actions' }, play, rename, remove)),
      status, list, empty);

    let focusAfter = null; // {id, action} to refocus once a move or remove has come back
    const render = () => {
      const { playlist, episodes } = data;
      title.textContent = playlist.name;
      facts.textContent = playlistFacts(playlist);
      document.title = `${playlist.name} · Earshot`;
      play.disabled = episodes.length === 0;
      list.replaceChildren(...episodes.map((episode, index) => item(episode, index, episodes.length)));
      list.hidden = episodes.length === 0;
      empty.hidden = episodes.length !== 0;
      showPlaying();
      if (focusAfter) {
        const row = list.querySelector(`.playlist-item[data-episode-id="${focusAfter.id}"]`);
        (row?.querySelector(`[data-item="${focusAfter.action}"]:not(:disabled)`) ?? row?.querySelector('[data-item="remove"]') ?? play).focus();
        focusAfter = null;
      }
    };
    /** The row highlight (shared) and this view's play buttons, which become pause buttons. */
    const showPlaying = () => {
      markNowPlaying(root);
      for (const button of list.querySelectorAll('[data-item="play"]')) {
        const pausable = player.episode?.id === Number(button.dataset.episodeId) && !player.paused;
        if (button.dataset.showing === (pausable ? 'pause' : 'play')) continue;
        button.dataset.showing = pausable ? 'pause' : 'play';
        button.setAttribute('aria-label', `${pausable ? 'Pause' : 'Play'} ${button.dataset.title || 'episode'}`);
        button.replaceChildren(icon(pausable ? 'pause' : 'play'));
      }
    };

    // Refetch coalesced: one request at a time, one more if something changed meanwhile.
    let fetching = false;
    let again = false;
    let deleted = false;
    const refetch = async () => {
      if (fetching) { again = true; return; }
      fetching = true;
      try {
        data = await getJSON(`/api/playlists/${id}`);
        if (isCurrent()) render();
      } catch (error) {
        if (isCurrent() && error.status === 404 && !deleted) root.replaceChildren(...missing(error));
      } finally {
        fetching = false;
        if (again) { again = false; refetch(); }
      }
    };

    root.querySelector('.playlist-header-actions').addEventListener('click', (event) => {
      const button = event.target.closest('button[data-playlist-action]');
      if (!button) return;
      const action = button.dataset.playlistAction;
      act(action, data.playlist, {
        afterDelete: () => { deleted = true; router.navigate('/playlists', { replace: true }); },
      });
    });

    list.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-item]');
      if (!button) return;
      const row = button.closest('.playlist-item');
      const episode = Number(row.dataset.episodeId);
      const index = Number(row.dataset.index);
      const name = row.querySelector('.episode-title')?.textContent ?? 'episode';
      const playlist = data.playlist.id;
      switch (button.dataset.item) {
        case 'play':
          if (player.episode?.id === episode) socket.send(player.paused ? Cmd.resume : Cmd.pause);
          else command(Cmd.playlistPlay, { playlist, episode }).catch(() => {});
          break;
        case 'up':
        case 'down': {
          const to = button.dataset.item === 'up' ? index - 1 : index + 1;
          focusAfter = { id: episode, action: button.dataset.item };
          command(Cmd.playlistMove, { playlist, from: index, to })
            .then(() => { status.textContent = `Moved ${name} to position ${to + 1}`; })
            .catch(() => { focusAfter = null; });
          break;
        }
        case 'remove': {
          const neighbour = row.nextElementSibling ?? row.previousElementSibling;
          focusAfter = neighbour ? { id: Number(neighbour.dataset.episodeId), action: 'remove' } : null;
          command(Cmd.playlistRemove, { playlist, episode })
            .then(() => { status.textContent = `Removed ${name}`; })
            .catch(() => { focusAfter = null; });
          break;
        }
        default:
      }
    });

    const stops = [
      socket.on(Msg.playlists, refetch),
      socket.on(Msg.library, refetch),
      socket.on('status', (state) => { if (state === 'open') refetch(); }),
      player.subscribe((state, kind) => { if (kind !== 'tick') showPlaying(); }),
    ];
    render();
    return {
      title: data.playlist.name,
      destroy() { for (const stop of stops) stop(); },
    };
  },
};

function missing(error) {
  const found = error.status !== 404;
  const parts = problem(found ? 'Could not load this playlist' : 'Playlist not found',
    found ? error.message : 'It may have been deleted, here or on another device.');
  parts[parts.length - 1] = h('p', {}, h('a', { class: 'button', href: '/playlists' }, 'All playlists'));
  return parts;
}

/** One episode of the playlist: the usual row (art, title, podcast · date · length, progress)
 *  with play, move up, move down and remove. */
function item(episode, index, count) {
  const title = episode.title || 'Untitled episode';
  const control = (action, iconNode, label, disabled = false) => h('button', {
    type: 'button', class: 'queue-button', dataset: { item: action }, 'aria-label': `${label} ${title}`, disabled,
  }, iconNode);
  const facts = [];
  const date = dateText(episode.published);
  const length = durationText(episode.duration);
  if (date) facts.push(h('time', { datetime: dateISO(episode.published) }, date));
  if (length) facts.push(h('span', { class: 'episode-duration' }, length));
  if (episode.played) facts.push(h('span', { class: 'played-mark' }, 'Played'));
  return h('li', {
    class: episode.played ? 'episode playlist-item is-played' : 'episode playlist-item',
    dataset: { episodeId: episode.id, index },
  },
  h('span', { class: 'art-wrap' }, artwork(episode.artwork), equalizer()),
  h('div', { class: 'episode-body' },
    h('a', { class: 'episode-title', href: `/episode/${episode.id}` }, title),
    h('p', { class: 'episode-meta' },
      h('span', { class: 'playlist-position' }, `${index + 1}`),
      h('span', { class: 'episode-podcast' }, episode.podcast ?? ''),
      h('span', { class: 'episode-facts' }, facts)),
    progressBar(episode)),
  h('div', { class: 'playlist-item-controls' },
    h('button', {
      type: 'button', class: 'play-button', dataset: { item: 'play', episodeId: episode.id, title },
      'aria-label': `Play ${title}`,
    }, icon('play')),
    control('up', icon('up'), 'Move up', index === 0),
    control('down', icon('down'), 'Move down', index === count - 1),
    control('remove', icon('close'), 'Remove')));
}
