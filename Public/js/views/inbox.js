// Inbox view `/inbox`: the episodes refreshes brought that the listener has not dealt with yet,
// newest first (GET /api/inbox, a page at a time, windowed like every long list). Each row is the
// usual episode row with three labelled actions — Play (it starts; playing takes it out of the
// Inbox), Queue (`queue.add`) and Dismiss (`inbox.dismiss`) — and "Clear Inbox" (`inbox.clear`,
// after a confirm) empties it. A row leaves at once; focus goes to the same action on the next
// row (the previous one at the end, else the heading). Every client follows the server through the
// Inbox store (core/inbox.js): another client's actions, a refresh's new episodes.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { getJSON } from '../core/api.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { inbox } from '../core/inbox.js';
import { player } from '../core/player-state.js';
import { plural } from '../core/format.js';
import { episodeRow } from '../components/episode-row.js';
import { pagedList } from '../components/paged-list.js';
import { confirmDialog } from '../components/confirm.js';

export const inboxView = {
  async mount(root) {
    const leaving = new Set(); // episodes acted on here (or playing): hidden until the refetch drops them
    const title = h('h1', { class: 'view-title', tabindex: '-1' }, 'Inbox');
    const clearButton = h('button', { type: 'button', class: 'button button-small inbox-clear', hidden: true },
      icon('check'), h('span', { class: 'button-label' }, 'Clear Inbox'));
    const summary = h('p', { class: 'inbox-summary' });
    let total = inbox.total ?? 0;

    const showTotal = (count) => {
      total = Math.max(0, count);
      summary.textContent = total > 0 ? `${plural(total, 'new episode')}` : '';
      summary.hidden = total === 0;
      clearButton.hidden = total === 0;
    };

    const list = pagedList({
      load: (offset, limit, signal, after) =>
        getJSON(`/api/inbox?${after !== null ? `after=${after}` : `offset=${offset}`}&limit=${limit}`, { signal }),
      row: (episode) => {
        const li = inboxRow(episode);
        if (leaving.has(episode.id)) li.hidden = true;
        return li;
      },
      emptyText: () => 'Your Inbox is empty. New episodes arrive here when your podcasts refresh.',
      onPage: (body) => { if (Number.isFinite(Number(body?.total))) showTotal(Number(body.total)); },
      label: 'Inbox',
      memory: () => 'inbox',
    });

    /** Hides episode `id`'s row; moves focus from it to the same control on a neighbouring row. */
    const leave = (id, control) => {
      if (leaving.has(id)) return;
      leaving.add(id);
      const row = list.el.querySelector(`li.inbox-item[data-episode-id="${id}"]`);
      if (!row || row.hidden) return;
      const hadFocus = row.contains(document.activeElement) || document.activeElement === document.body;
      const next = neighbour(row, 'nextElementSibling') ?? neighbour(row, 'previousElementSibling');
      row.hidden = true;
      showTotal(total - 1);
      if (!hadFocus) return;
      const selector = control?.dataset.inbox ? `[data-inbox="${control.dataset.inbox}"]`
        : control?.dataset.action ? `[data-action="${control.dataset.action}"]` : 'button';
      const target = next?.querySelector(selector) ?? next?.querySelector('button');
      (target ?? title).focus({ preventScroll: !target });
    };

    root.replaceChildren(
      h('div', { class: 'section-head inbox-head' }, title, clearButton),
      summary,
      h('div', { class: 'episodes-box inbox-box' }, list.el));
    showTotal(total);

    root.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-leaves]');
      if (!button || !root.contains(button)) return;
      const id = Number(button.dataset.episodeId);
      // Play and Queue are the page's usual actions (components/actions.js, after this handler).
      if (button.dataset.inbox === 'dismiss' && socket.send(Cmd.inboxDismiss, { episode: id }) === null) return;
      if (socket.status === 'open') leave(id, button); // else the action says it is not connected
    });

    clearButton.addEventListener('click', async () => {
      const sure = await confirmDialog({
        title: 'Clear the Inbox?',
        text: `${total === 1 ? 'The episode leaves' : `All ${total} episodes leave`} the Inbox. ${total === 1 ? 'It stays' : 'They stay'} in your library, unplayed.`,
        confirm: 'Clear Inbox',
      });
      if (!sure) return;
      if (socket.send(Cmd.inboxClear) === null) return;
      for (const row of list.el.querySelectorAll('li.inbox-item')) {
        leaving.add(Number(row.dataset.episodeId));
        row.hidden = true;
      }
      showTotal(0);
      title.focus();
    });

    // A failed command (the episode was gone already…): show the server's Inbox again.
    const stopErrors = socket.on('commandError', ({ cmd }) => {
      if (cmd !== Cmd.inboxDismiss && cmd !== Cmd.inboxClear && cmd !== Cmd.play && cmd !== Cmd.queueAdd) return;
      leaving.clear();
      list.refresh();
    });
    // Playing an episode anywhere takes it out of the Inbox.
    const stopPlayer = player.subscribe((state, kind) => {
      if (kind === 'tick') return;
      const id = state?.episode?.id;
      if (id !== undefined && id !== null && list.el.querySelector(`li.inbox-item[data-episode-id="${id}"]:not([hidden])`)) leave(id, null);
    });
    const stopInbox = inbox.changed((count) => {
      showTotal(count);
      list.refresh();
    });

    await list.reset({ restore: true }); // before the router restores the scroll position (Back)
    return {
      title: 'Inbox',
      destroy() {
        stopErrors();
        stopPlayer();
        stopInbox();
        list.destroy();
      },
    };
  },
};

/** The row for an Inbox episode: the usual row, its round play button replaced by three labelled
 *  actions in a group of their own (beside the download button and the More menu on a wide screen,
 *  under the title on a phone). */
export function inboxRow(episode) {
  const li = episodeRow(episode);
  li.classList.add('inbox-item');
  const title = episode.title || 'episode';
  const action = (name, iconName, text, data) => h('button', {
    type: 'button',
    class: `button button-small inbox-action inbox-${name}`,
    dataset: { ...data, episodeId: episode.id, title: episode.title ?? '', leaves: '' },
    'aria-label': `${text} ${title}`,
  }, icon(iconName), h('span', { class: 'button-label' }, text));
  const actions = li.querySelector('.episode-actions');
  actions.querySelector('.play-button')?.remove();
  actions.before(h('div', { class: 'inbox-actions' },
    action('play', 'play', 'Play', { action: 'play' }),
    action('queue', 'addQueue', 'Queue', { action: 'queue-add' }),
    action('dismiss', 'close', 'Dismiss', { inbox: 'dismiss' })));
  return li;
}

function neighbour(row, direction) {
  let next = row[direction];
  while (next && (next.hidden || !next.matches('li.inbox-item'))) next = next[direction];
  return next;
}
