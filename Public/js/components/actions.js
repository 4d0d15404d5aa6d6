// Buttons anywhere in the page declare what they do with data-action; one
// delegated handler turns them into commands (a declared table, myMPD-style).

import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { toast } from '../core/toast.js';
import { toggleRowMenu } from './row-menu.js';
import { showPlayed } from './episode-row.js';

const REPEAT_NEXT = { off: 'all', all: 'one', one: 'off' };
const pendingMarks = new Map(); // command id → { episode, played, title }

/** What each data-action sends. */
const ACTIONS = {
  /** Plays the row's episode, or pauses it when it is the one playing. */
  play(button) {
    const id = Number(button.dataset.episodeId);
    if (player.episode?.id === id && !player.paused) socket.send(Cmd.pause);
    else socket.send(Cmd.play, { episode: id });
  },
  /** Play/pause of the loaded episode: sends what the button showed, not a blind toggle. */
  playpause() {
    socket.send(player.paused ? Cmd.resume : Cmd.pause);
  },
  skip(button) {
    socket.send(Cmd.skip, { by: Number(button.dataset.by) });
  },
  /** The row's overflow menu (Play next / Add to queue). */
  'queue-menu'(button) {
    toggleRowMenu(button);
  },
  'queue-next'(button) {
    if (socket.send(Cmd.queueAdd, { episode: Number(button.dataset.episodeId), at: 'next' }) !== null) {
      toast(`Playing next: ${button.dataset.title || 'episode'}`);
    }
  },
  'queue-add'(button) {
    if (socket.send(Cmd.queueAdd, { episode: Number(button.dataset.episodeId), at: 'end' }) !== null) {
      toast(`Added to queue: ${button.dataset.title || 'episode'}`);
    }
  },
  /** Mark as played / unplayed: asks for the opposite of what the button shows (data-played). */
  mark(button) {
    const episode = Number(button.dataset.episodeId);
    const played = button.dataset.played !== 'true';
    const id = socket.send(Cmd.mark, { episode, played });
    if (id !== null) pendingMarks.set(id, { episode, played, title: button.dataset.title });
  },
  previous() {
    socket.send(Cmd.previous);
  },
  next() {
    socket.send(Cmd.next);
  },
  shuffle() {
    socket.send(Cmd.shuffle, { on: !player.state?.shuffle });
  },
  /** Cycles off → all → one → off. */
  repeat() {
    socket.send(Cmd.repeat, { mode: REPEAT_NEXT[player.state?.repeat] ?? 'all' });
  },
};

/** Installs the delegated click handler. */
export function initActions() {
  // A mark shows here once the server took it (the `library` refetch that follows redraws lists).
  socket.on('commandAck', ({ id }) => {
    const mark = pendingMarks.get(id);
    if (!mark) return;
    pendingMarks.delete(id);
    showPlayed(mark.episode, mark.played);
    toast(`${mark.played ? 'Marked as played' : 'Marked as unplayed'}: ${mark.title || 'episode'}`);
  });
  socket.on('commandError', ({ id }) => pendingMarks.delete(id));
  socket.on('status', (status) => { if (status !== 'open') pendingMarks.clear(); });
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button[data-action]');
    const action = button && ACTIONS[button.dataset.action];
    if (!action) return;
    event.preventDefault();
    action(button);
  });
}
