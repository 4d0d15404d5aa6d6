// The Inbox's size (GET /api/inbox's `total`), for the header's badge and the Inbox view.
// Fetched again when the library changes (`library`: a refresh brought episodes, one was queued,
// marked played or dismissed), after a reconnect (messages sent meanwhile are lost), and when
// another episode starts playing: playing takes an episode out of the Inbox, and the server says
// so in `state` only (no `library` message follows a `play`), a moment after the state.

import { getJSON } from './api.js';
import { socket } from './socket.js';
import { Msg } from './commands.js';
import { player } from './player-state.js';

const listeners = new Set();
const AFTER_PLAY_MS = 400; // the server takes the episode out of the Inbox just after `state`
let loading = null;
let again = false;
let started = false;

/** The Inbox store: `total` (null until known); `changed(fn)` tells of every fetch. */
export const inbox = {
  total: null,

  /** Fetches the count; calls made while one runs are folded into one more fetch after it. */
  load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = getJSON('/api/inbox?limit=1')
      .then((body) => {
        const total = Number(body?.total);
        this.total = Number.isFinite(total) && total > 0 ? Math.floor(total) : 0;
        for (const fn of listeners) {
          try {
            fn(this.total);
          } catch (error) {
            console.error(error);
          }
        }
      })
      .catch(() => {}) // offline: the badge keeps what it showed; the next trigger tries again
      .finally(() => {
        loading = null;
        if (again) {
          again = false;
          this.load();
        }
      });
    return loading;
  },

  /** Calls `fn(total)` after every fetch (the Inbox may have changed); returns an unsubscribe function. */
  changed(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },

  /** Starts following the server (once): the triggers above. */
  start() {
    if (started) return;
    started = true;
    socket.on(Msg.library, () => this.load());
    let wasOpen = false;
    socket.on('status', (status) => {
      if (status === 'open' && wasOpen) this.load();
      if (status === 'open') wasOpen = true;
    });
    let playing = player.episode?.id ?? null;
    let timer = 0;
    player.subscribe((state, kind) => {
      if (kind === 'tick') return;
      const id = state?.episode?.id ?? null;
      if (id === playing) return;
      playing = id;
      if (id === null) return;
      clearTimeout(timer);
      timer = setTimeout(() => this.load(), AFTER_PLAY_MS);
    });
    this.load();
  },
};
