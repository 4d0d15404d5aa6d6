// Buttons anywhere in the page declare what they do with data-action; one
// delegated handler turns them into commands (a declared table, myMPD-style).

import { socket } from '../core/socket.js';
import { player } from '../core/player-state.js';
import { toast } from '../core/toast.js';
import { toggleRowMenu } from './row-menu.js';

const REPEAT_NEXT = { off: 'all', all: 'one', one: 'off' };

/** What each data-action sends. */
const ACTIONS = {
  /** Plays the row's episode, or pauses it when it is the one playing. */
  play(button) {
    const id = Number(button.dataset.episodeId);
    if (player.episode?.id === id && !player.paused) socket.send('pause');
    else socket.send('play', { episode: id });
  },
  /** Play/pause of the loaded episode: sends what the button showed, not a blind toggle. */
  playpause() {
    socket.send(player.paused ? 'resume' : 'pause');
  },
  skip(button) {
    socket.send('skip', { by: Number(button.dataset.by) });
  },
  /** The row's overflow menu (Play next / Add to queue). */
  'queue-menu'(button) {
    toggleRowMenu(button);
  },
  'queue-next'(button) {
    if (socket.send('queue.add', { episode: Number(button.dataset.episodeId), at: 'next' }) !== null) {
      toast(`Playing next: ${button.dataset.title || 'episode'}`);
    }
  },
  'queue-add'(button) {
    if (socket.send('queue.add', { episode: Number(button.dataset.episodeId), at: 'end' }) !== null) {
      toast(`Added to queue: ${button.dataset.title || 'episode'}`);
    }
  },
  previous() {
    socket.send('previous');
  },
  next() {
    socket.send('next');
  },
  shuffle() {
    socket.send('shuffle', { on: !player.state?.shuffle });
  },
  /** Cycles off → all → one → off. */
  repeat() {
    socket.send('repeat', { mode: REPEAT_NEXT[player.state?.repeat] ?? 'all' });
  },
};

/** Installs the delegated click handler. */
export function initActions() {
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button[data-action]');
    const action = button && ACTIONS[button.dataset.action];
    if (!action) return;
    event.preventDefault();
    action(button);
  });
}
