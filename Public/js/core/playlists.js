// Named playlists: the list from GET /api/playlists, refetched whenever the server announces a
// `playlists` change (any client's edit) or a `library` change (unsubscribing hides episodes,
// marking played changes rows), and a way to send a playlist.* command and wait for its reply.

import { getJSON } from './api.js';
import { socket } from './socket.js';
import { Msg } from './commands.js';

const listeners = new Set();
let loading = null;
let again = false; // a change arrived while a fetch was in flight: fetch once more after it

/** The playlists store: `list` is `[Playlist]` ({id, name, episodeIds, count, duration, …}). */
export const playlists = {
  list: [],
  loaded: false,

  /** Fetches the list. A call during a fetch schedules one more, so the last answer is never
   *  older than the last change announced. Resolves when listeners ran. */
  load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = getJSON('/api/playlists')
      .then((body) => {
        this.list = Array.isArray(body?.playlists) ? body.playlists : [];
        this.loaded = true;
        for (const fn of listeners) fn(this);
      })
      .finally(() => {
        loading = null;
        if (again) {
          again = false;
          this.load().catch(() => {});
        }
      });
    return loading;
  },

  /** The playlist with this id, or undefined. */
  byId(id) {
    return this.list.find((p) => p.id === Number(id));
  },

  /** Calls `fn(playlists)` after every load; returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

/** Sends `cmd` over the socket; resolves on its `ack`, rejects with the server's message on
 *  `error` (or when not connected). */
export function command(cmd, args = {}) {
  return new Promise((resolve, reject) => {
    const id = socket.send(cmd, args);
    if (id === null) {
      reject(new Error('Not connected to Earshot — reconnecting…'));
      return;
    }
    const stops = [
      socket.on('commandAck', (reply) => { if (reply.id === id) finish(resolve); }),
      socket.on('commandError', (reply) => { if (reply.id === id) finish(() => reject(new Error(reply.message))); }),
      socket.on('status', (status) => { if (status !== 'open') finish(() => reject(new Error('The connection dropped'))); }),
    ];
    function finish(then) {
      for (const stop of stops) stop();
      then();
    }
  });
}

// Only once someone has looked at playlists: a page that never shows them never fetches them.
const refetch = () => { if (playlists.loaded || listeners.size) playlists.load().catch(() => {}); };
socket.on(Msg.playlists, refetch);
socket.on(Msg.library, refetch);
socket.on('status', (status) => { if (status === 'open') refetch(); }); // changes missed while away
