// Feed refreshing: the server's RefreshStatus ({running, total, done, failed, current}),
// kept current from `refresh` messages (pushed to every client), and the requests that start
// a refresh of one feed or of all of them.

import { getJSON, postJSON } from './api.js';

const RESULT_NEWS_MS = 10 * 60_000; // a result older than this is not announced on a fresh view

const listeners = new Set(); // fn(status)
let status = null;
let seenRunning = false; // this page watched a refresh run: its result is news here
let finishedAt = -Infinity; // performance.now() when a watched run ended
let heard = 0; // `refresh` messages received, to drop a POST answer older than one of them

/** The refresh store. */
export const refresh = {
  /** The current or last RefreshStatus, or null before the first one. */
  get status() { return status; },

  /** Whether the current or last refresh is news here: this page saw it running, and it is still
   *  running or ended a few minutes ago (a refresh from before the page loaded, or from an hour
   *  ago, is not announced). */
  get witnessed() {
    return seenRunning && (Boolean(status?.running) || performance.now() - finishedAt < RESULT_NEWS_MS);
  },

  /** Applies a `refresh` message from the socket. */
  receive(message) {
    heard += 1;
    apply(message);
  },

  /** Fetches the status (on start and after a reconnect: messages sent meanwhile are lost). */
  async load() {
    const before = heard;
    const { refresh: fetched } = await getJSON('/api/refresh');
    if (heard === before) apply(fetched);
  },

  /** Starts refreshing one podcast (`podcastId`) or every feed (no argument). */
  async start(podcastId) {
    const before = heard;
    const path = podcastId === undefined ? '/api/refresh' : `/api/podcasts/${podcastId}/refresh`;
    const { refresh: started } = await postJSON(path);
    // The socket may already have told us more than this answer (even that it finished).
    if (heard === before) apply({ ...started, running: started?.running ?? true });
    return status;
  },

  /** Calls `fn(status)` on every change; returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

function apply(raw) {
  if (!raw || typeof raw !== 'object') return;
  const next = {
    running: Boolean(raw.running),
    total: count(raw.total),
    done: count(raw.done),
    failed: count(raw.failed),
    current: Array.isArray(raw.current) ? raw.current.filter((t) => typeof t === 'string') : [],
  };
  if (next.running) seenRunning = true;
  else if (status?.running) finishedAt = performance.now();
  status = next;
  for (const fn of listeners) {
    try {
      fn(status);
    } catch (error) {
      console.error(error);
    }
  }
}

function count(value) {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** "Refreshing 3 of 12…", "Up to date", "2 feeds failed" (or "" when there is nothing to say). */
export function refreshText(s, witnessed = true) {
  if (!s) return '';
  if (s.running) {
    if (s.total === 1 && s.current.length === 1) return `Refreshing “${s.current[0]}”…`;
    if (s.total === 0) return 'Refreshing…';
    return `Refreshing ${Math.min(s.done + 1, s.total)} of ${s.total}…`;
  }
  if (!witnessed) return '';
  if (s.failed > 0) return `${s.failed} feed${s.failed === 1 ? '' : 's'} failed`;
  return 'Up to date';
}
