// The lists (podcasts and the newest episodes), fetched from /api and refetched
// whenever the server announces a `library` change.

import { getJSON } from './api.js';

const listeners = new Set();
let loading = null;

/** The library store. */
export const library = {
  podcasts: [],
  episodes: [],
  loaded: false,

  /** Fetches both lists; concurrent calls share one request. Resolves when listeners ran. */
  load() {
    if (loading) return loading;
    loading = Promise.all([getJSON('/api/podcasts'), getJSON('/api/episodes?limit=100')])
      .then(([p, e]) => {
        this.podcasts = p?.podcasts ?? [];
        this.episodes = e?.episodes ?? [];
        this.loaded = true;
        for (const fn of listeners) fn(this);
      })
      .finally(() => { loading = null; });
    return loading;
  },

  /** Calls `fn(library)` after every successful load; returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};
