// Offline copies as the server reports them: every `downloads` message (pushed at most a few
// times a second while bytes arrive) replaces what is known; GET /api/downloads fills the gaps
// after a reconnect. The page shows these numbers as sent: it never counts bytes itself.

import { getJSON } from './api.js';

const listeners = new Set();

/** The downloads store: `byEpisode` (episode id → item), `summary`, `settings`. An item is
 *  `{episode, podcastId, title, podcast, state, bytes, total, fraction, error, retryAt, …}`. */
export const downloads = {
  byEpisode: new Map(),
  items: [],
  summary: { total: 0, done: 0, running: false, label: '', fraction: 0, percent: 0 },
  settings: { concurrency: 2, deletePlayedAfterDays: null, autoDownload: {} },
  loaded: false,

  /** Takes a `downloads` message (or the same JSON from the API) and tells the listeners. */
  receive(message) {
    if (!message || !Array.isArray(message.items)) return;
    this.items = message.items;
    this.byEpisode = new Map(message.items.map((item) => [item.episode, item]));
    this.summary = message.summary ?? this.summary;
    this.settings = message.settings ?? this.settings;
    this.loaded = true;
    for (const fn of listeners) fn(this);
  },

  /** Fetches the current state (after a reconnect: messages sent meanwhile are lost). */
  load() {
    return getJSON('/api/downloads').then((body) => this.receive(body));
  },

  /** The download of episode `id`, or undefined. */
  get(id) {
    return this.byEpisode.get(Number(id));
  },

  /** Calls `fn(downloads)` after every change; returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

/** "12.3 MB" (decimal units, as the server's messages say them). */
export function bytesText(bytes) {
  const value = Math.max(0, Number(bytes) || 0);
  if (value < 1e3) return `${Math.round(value)} B`;
  if (value < 1e6) return `${Math.round(value / 1e3)} KB`;
  if (value < 1e9) return `${trim(value / 1e6)} MB`;
  return `${trim(value / 1e9)} GB`;
}

function trim(number) {
  const tenths = Math.round(number * 10);
  return tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
}

/** What a download is doing, in a few words: "12 MB of 40 MB · 31 %", "Waiting", "Retrying in 5 s", … */
export function statusText(item, now = Date.now() / 1000) {
  if (!item) return '';
  const percent = item.fraction === null || item.fraction === undefined ? null : Math.floor(item.fraction * 100);
  const of = item.total ? `${bytesText(item.bytes)} of ${bytesText(item.total)}` : bytesText(item.bytes);
  switch (item.state) {
    case 'downloading': return percent === null ? of : `${of} · ${percent} %`;
    case 'queued':
      if (item.retryAt) return `Retrying in ${Math.max(1, Math.round(item.retryAt - now))} s`;
      return item.bytes > 0 ? `Waiting · ${of}` : 'Waiting';
    case 'paused': return percent === null ? `Paused · ${of}` : `Paused at ${percent} %`;
    case 'failed': return 'Failed';
    case 'done': return `Downloaded · ${bytesText(item.bytes)}`;
    default: return '';
  }
}
