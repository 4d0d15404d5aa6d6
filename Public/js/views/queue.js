// Queue view `/queue`: Up Next as the server shows it (shuffled when shuffle is on), the
// playing episode marked; each item can be dragged by its grip (mouse, pen or touch) and has
// move up / move down / remove buttons (the keyboard alternative to dragging), plus Clear.
// Titles come from the library's lists, the playing episode, or GET /api/episodes/{id}.

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { getJSON } from '../core/api.js';
import { library } from '../core/library.js';
import { player } from '../core/player-state.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { equalizer } from '../components/episode-row.js';
import { markNowPlaying } from '../components/now-playing.js';
import { dragReorder } from '../components/drag-reorder.js';

const known = new Map(); // episode id → {title, podcast, artwork}
const fetching = new Set();

export const queueView = {
  mount(root) {
    const list = h('ol', { class: 'queue-list', 'aria-label': 'Up Next' });
    const empty = h('p', { class: 'empty' }, 'The queue is empty. Use “Play next” or “Add to queue” on any episode.');
    const clear = h('button', { type: 'button', class: 'button button-small queue-clear', on: { click: () => socket.send(Cmd.queueClear) } },
      icon('close'), h('span', { class: 'button-label' }, 'Clear'));
    const status = h('p', { class: 'visually-hidden', role: 'status' });
    root.replaceChildren(
      h('div', { class: 'section-head queue-head' },
        h('h1', { class: 'view-title', tabindex: '-1' }, 'Queue'), clear),
      status, list, empty);

    let shown = null; // what is on screen, to skip identical re-renders
    let focusAfter = null; // {id, action} to refocus after a move
    let dragFrom = null; // the queue when a drag began: a drop applies to that order only
    let moveId = null; // the command id of a drop, to undo the shown order if it is refused
    const render = () => {
      if (dragging.active) return; // the drop renders what arrived meanwhile
      const state = player.state;
      const queue = Array.isArray(state?.queue) ? state.queue : [];
      const current = state?.episode?.id ?? null;
      if (state?.episode) remember(state.episode.id, state.episode);
      const signature = JSON.stringify([queue, current, queue.map((id) => known.get(id)?.title ?? null)]);
      if (signature === shown) return;
      shown = signature;
      list.replaceChildren(...queue.map((id, index) => item(id, index, queue.length, id === current)));
      list.hidden = queue.length === 0;
      empty.hidden = queue.length !== 0;
      clear.hidden = queue.length === 0 || (queue.length === 1 && queue[0] === current);
      markNowPlaying(root);
      for (const id of queue) if (!known.has(id)) lookUp(id, render);
      if (focusAfter) {
        const target = list.querySelector(`.queue-item[data-episode-id="${focusAfter.id}"] [data-queue="${focusAfter.action}"]:not(:disabled)`)
          ?? list.querySelector(`.queue-item[data-episode-id="${focusAfter.id}"] [data-queue="remove"]`);
        target?.focus();
        focusAfter = null;
      }
    };

    const announce = (id, to) => { status.textContent = `Moved ${known.get(id)?.title ?? 'episode'} to position ${to + 1}`; };
    const dragging = dragReorder(list, {
      grip: '.queue-grip',
      onStart() { dragFrom = JSON.stringify(player.state?.queue ?? []); },
      onEnd(moved) {
        // The queue changed elsewhere during the drag: the rows on screen are stale, redraw them.
        if (JSON.stringify(player.state?.queue ?? []) !== dragFrom) { shown = null; render(); }
        else if (!moved) render(); // what arrived meanwhile (the playing episode may have changed)
      },
      onDrop(from, to) {
        if (JSON.stringify(player.state?.queue ?? []) !== dragFrom) return;
        // The rows already show the new order; the server's `state` confirms it (and redraws).
        moveId = socket.send(Cmd.queueMove, { from, to });
        announce(Number(list.children[to]?.dataset.episodeId), to);
      },
    });
    const stopErrors = socket.on('commandError', ({ id }) => {
      if (id !== null && id === moveId) { shown = null; render(); } // refused: show the server's order again
    });

    list.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-queue]');
      if (!button) return;
      const row = button.closest('.queue-item');
      const id = Number(row.dataset.episodeId);
      const index = Number(row.dataset.index);
      const title = known.get(id)?.title ?? 'episode';
      if (button.dataset.queue === 'up' || button.dataset.queue === 'down') {
        const to = button.dataset.queue === 'up' ? index - 1 : index + 1;
        socket.send(Cmd.queueMove, { from: index, to });
        focusAfter = { id, action: button.dataset.queue };
        announce(id, to);
      } else if (button.dataset.queue === 'remove') {
        socket.send(Cmd.queueRemove, { episode: id });
        status.textContent = `Removed ${title}`;
        // Keep focus in the list: on the next row's remove button, else the previous one's.
        const neighbour = row.nextElementSibling ?? row.previousElementSibling;
        if (neighbour) focusAfter = { id: Number(neighbour.dataset.episodeId), action: 'remove' };
      }
    });

    const unsubscribe = player.subscribe((state, kind) => { if (kind === 'state') render(); });
    const stopLibrary = library.subscribe(() => {
      for (const episode of library.episodes) remember(episode.id, episode);
      render();
    });
    for (const episode of library.episodes) remember(episode.id, episode);
    render();
    return {
      title: 'Queue',
      destroy() {
        dragging.cancel();
        unsubscribe();
        stopLibrary();
        stopErrors();
      },
    };
  },
};

function remember(id, episode) {
  known.set(id, { title: episode.title ?? '', podcast: episode.podcast ?? '', artwork: episode.artwork ?? null });
}

function lookUp(id, then) {
  if (fetching.has(id)) return;
  fetching.add(id);
  getJSON(`/api/episodes/${id}`)
    .then(({ episode }) => { remember(id, episode); then(); })
    .catch(() => { known.set(id, { title: `Episode ${id}`, podcast: '', artwork: null }); then(); })
    .finally(() => fetching.delete(id));
}

function item(id, index, count, current) {
  const info = known.get(id);
  const title = info?.title || (info ? 'Untitled episode' : 'Loading…');
  const control = (action, name, label, disabled = false) => h('button', {
    type: 'button', class: 'queue-button', dataset: { queue: action }, 'aria-label': `${label} ${title}`, disabled,
  }, icon(name));
  return h('li', { class: 'queue-item episode', dataset: { episodeId: id, index } },
    // Not focusable and hidden from assistive tech: the move buttons do the same by keyboard.
    h('span', { class: 'queue-grip', 'aria-hidden': 'true', title: 'Drag to reorder' }),
    h('span', { class: 'art-wrap' }, artwork(info?.artwork), equalizer()),
    h('div', { class: 'episode-body' },
      h('a', { class: 'episode-title', href: `/episode/${id}` }, title),
      h('p', { class: 'episode-meta' },
        current ? h('span', { class: 'queue-now' }, 'Now playing') : h('span', { class: 'queue-position' }, `${index + 1}`),
        h('span', { class: 'episode-podcast' }, info?.podcast ?? ''))),
    h('div', { class: 'queue-controls' },
      control('up', 'up', 'Move up', index === 0),
      control('down', 'down', 'Move down', index === count - 1),
      control('remove', 'close', 'Remove')));
}
