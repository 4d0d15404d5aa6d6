// The podcast directory, asked through the server (docs/protocol.md, `/api/directory/…`): a
// search, the Popular list, and the directory settings — which directory answers and the
// listener's Podcast Index key. The server signs Podcast Index requests itself, so the secret is
// sent once, when saved, and never comes back (`podcastIndex.key` is its first four characters).

import { getJSON, putJSON } from './api.js';

const SEARCH = '/api/directory/search';
const POPULAR = '/api/directory/popular';
const SETTINGS = '/api/directory/settings';

/** Results for `term` from the directory the server uses by default; `signal` cancels. */
export async function searchDirectory(term, signal) {
  const body = await getJSON(`${SEARCH}?q=${encodeURIComponent(term)}`, { signal });
  return Array.isArray(body?.results) ? body.results : [];
}

/** The directory's popular podcasts (iTunes' chart, Podcast Index's trending feeds). */
export async function popularPodcasts(signal) {
  const body = await getJSON(POPULAR, { signal });
  return Array.isArray(body?.results) ? body.results : [];
}

/** Does `text`, as typed, name a feed rather than a podcast to search for? A scheme
 *  ("https://…", "feed://…") or, without spaces, a host name followed by a path
 *  ("example.com/feed.xml"). A host alone ("example.com") is searched: feeds have paths. */
export function looksLikeFeedURL(text) {
  const value = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  return /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+(:\d+)?\/\S*$/u.test(value);
}

const listeners = new Set();

/** The directory settings as the server has them (`GET /api/directory/settings`), shared by the
 *  search (which reloads when the directory changes) and the settings form. */
export const directorySettings = {
  /** `{provider, podcastIndex: {configured, key, from}}`, or null until loaded. */
  value: null,
  /** False when this server has no directory settings (an older server): the form stays hidden. */
  available: true,
  loading: null,

  /** Fetches the settings (concurrent calls share one request). */
  load() {
    this.loading ??= getJSON(SETTINGS)
      .then((value) => this.receive(value))
      .catch((error) => {
        if (error.status === 404 || error.status === 405) {
          this.available = false;
          this.receive(null);
          return;
        }
        throw error;
      })
      .finally(() => { this.loading = null; });
    return this.loading;
  },

  /** Stores a Podcast Index key and secret (both empty: forgets them); resolves to the settings. */
  async save(key, secret) {
    return this.receive(await putJSON(SETTINGS, { podcastIndexKey: key, podcastIndexSecret: secret }), true);
  },

  receive(value, saved = false) {
    const changed = JSON.stringify(value) !== JSON.stringify(this.value);
    this.value = value;
    for (const fn of listeners) fn(this.value, { changed, saved });
    return value;
  },

  /** Calls `fn(settings, {changed, saved})` after every load and save (`saved`: this page saved
   *  them); returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

/** "Using Podcast Index (key UXKC…)" or "Using Apple Podcasts (iTunes)". */
export function directoryText(settings) {
  if (settings?.provider === 'podcastindex') {
    const key = settings.podcastIndex?.key;
    return key ? `Using Podcast Index (key ${key})` : 'Using Podcast Index';
  }
  return 'Using Apple Podcasts (iTunes)';
}
