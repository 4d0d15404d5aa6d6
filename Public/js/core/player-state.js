// What the server says is playing. The client keeps no idea of its own: it holds
// the last `state` snapshot with `time` updates folded in, and only interpolates the
// position between updates so the display moves smoothly.

import { Msg } from './commands.js';

const MAX_EXTRAPOLATION = 2; // seconds of media past the last update we are willing to guess
const TICK_MS = 250;

const listeners = new Set(); // fn(state, kind) — kind: 'state' | 'time' | 'tick'
let current = null;
let lastSeq = -Infinity;
let awaitingSnapshot = true; // until a connection's first `state` (see apply)
let anchorAt = 0; // performance.now() when `current.position` was true
let ticker = null;

/** The player store. */
export const player = {
  /** The last snapshot (with time updates applied), or null before the first one. */
  get state() { return current; },

  /** The loaded episode ({id, title, podcast, podcastId, artwork, duration}) or null. */
  get episode() { return current?.episode ?? null; },

  get paused() { return current ? Boolean(current.paused) : true; },

  /** Applies a `state` or `time` message; stale ones (older seq) are ignored. */
  apply(message) {
    const isState = message.type === Msg.state;
    if (!isState && message.type !== Msg.time) return;
    if (awaitingSnapshot) {
      // Broadcasts can reach a new socket before its snapshot does, and be newer or older than
      // it: a `time` then has no state to update (or only the last connection's), and its seq
      // must not make the snapshot look stale. The first state after connecting is taken whatever its seq.
      if (!isState) return;
      awaitingSnapshot = false;
    } else if (typeof message.seq === 'number' && message.seq <= lastSeq) {
      return;
    }
    if (typeof message.seq === 'number') lastSeq = message.seq;
    if (isState) {
      current = message;
    } else {
      const { position, duration, rate, paused } = message;
      current = { ...current, position, duration, rate, paused };
    }
    anchorAt = performance.now();
    syncTicker();
    notify(message.type);
  },

  /** A new connection starts a new sequence (the server may have restarted): its snapshot is awaited. */
  resetSequence() { lastSeq = -Infinity; awaitingSnapshot = true; },

  /** Seconds, interpolated while playing, clamped to the episode. */
  position() {
    if (!current?.episode) return 0;
    let position = Number(current.position) || 0;
    if (isRunning()) {
      const elapsed = ((performance.now() - anchorAt) / 1000) * (current.rate || 1);
      position += Math.min(elapsed, MAX_EXTRAPOLATION * (current.rate || 1));
    }
    const duration = this.duration();
    return duration > 0 ? Math.min(Math.max(position, 0), duration) : Math.max(position, 0);
  },

  /** Seconds; 0 when unknown. */
  duration() {
    if (!current?.episode) return 0;
    const d = Number(current.duration) || 0;
    return d > 0 ? d : Number(current.episode.duration) || 0;
  },

  /** Calls `fn(state, kind)` on every change and every display tick; returns an unsubscribe function. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

function isRunning() {
  return Boolean(current?.episode) && !current.paused && !current.buffering;
}

function syncTicker() {
  if (isRunning() && ticker === null) {
    ticker = setInterval(() => notify('tick'), TICK_MS);
  } else if (!isRunning() && ticker !== null) {
    clearInterval(ticker);
    ticker = null;
  }
}

function notify(kind) {
  for (const fn of listeners) {
    try {
      fn(current, kind);
    } catch (error) {
      console.error(error);
    }
  }
}
