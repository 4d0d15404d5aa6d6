// Hand-off to this phone (issue 16): the listener takes the episode along — the speakers pause
// and this page plays it in its own <audio> from the same place (Earshot's copy when there is one,
// with Range, else the feed's own address: GET /api/episodes/{id}/listen) — and gives it back
// ("Play on speakers") at the phone's position. While it plays here the phone reports where it
// is every few seconds (`handoff.position`), so the library stays true if the phone walks away.

import { h } from './dom.js';
import { socket } from './socket.js';
import { Cmd } from './commands.js';
import { player } from './player-state.js';

const REPORT_EVERY = 5000;
const listeners = new Set();
let audio = null;
let episode = null; // {id, title, podcast, artwork, duration} while this phone has it
let reportTimer = null;
let lastReported = null;

/** Sends a command and waits for its ack (rejects with the server's message). */
function request(cmd, args) {
  return new Promise((resolve, reject) => {
    const id = socket.send(cmd, args);
    if (id === null) { reject(new Error('Not connected to Earshot')); return; }
    const timer = setTimeout(() => { stop(); reject(new Error('Earshot did not answer')); }, 10_000);
    const offAck = socket.on('commandAck', (ack) => { if (ack.id === id) { stop(); resolve(); } });
    const offError = socket.on('commandError', (error) => { if (error.id === id) { stop(); reject(new Error(error.message)); } });
    function stop() { clearTimeout(timer); offAck(); offError(); }
  });
}

function notify() { for (const fn of listeners) fn(); }

function report(force = false) {
  if (!episode || !audio) return;
  const position = Math.max(0, audio.currentTime || 0);
  if (!force && lastReported !== null && Math.abs(position - lastReported) < 0.5) return;
  lastReported = position;
  socket.send(Cmd.handoffPosition, { episode: episode.id, position });
}

/** The hand-off store: `active`, `episode`, `audio` (the element), `subscribe(fn)`. */
export const handoff = {
  get active() { return episode !== null; },
  get episode() { return episode; },
  get audio() { return audio; },
  get playing() { return Boolean(audio && !audio.paused); },
  position() { return audio ? audio.currentTime || 0 : 0; },

  subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },

  /** Takes `taken` (the episode the speakers hold, as `player.episode` has it) to this phone. */
  async take(taken) {
    if (episode) return;
    await request(Cmd.handoffTake, { episode: taken.id });
    // The state the server sent before its ack holds where the speakers paused.
    const start = player.episode?.id === taken.id ? player.position() : 0;
    episode = { ...taken };
    lastReported = null;
    audio = h('audio', { class: 'handoff-audio', preload: 'auto', hidden: true });
    audio.dataset.episode = String(taken.id);
    const seekThere = () => {
      if (start > 0 && Math.abs(audio.currentTime - start) > 0.5) audio.currentTime = start;
    };
    audio.addEventListener('loadedmetadata', seekThere, { once: true });
    for (const type of ['play', 'pause', 'playing', 'timeupdate', 'ended', 'error']) {
      audio.addEventListener(type, () => {
        if (type === 'pause' || type === 'ended') report(true);
        if (type !== 'timeupdate') notify();
      });
    }
    audio.src = `/api/episodes/${taken.id}/listen`;
    document.body.append(audio);
    reportTimer = setInterval(() => { if (audio && !audio.paused) report(); }, REPORT_EVERY);
    notify();
    try {
      await audio.play();
    } catch {
      // Autoplay refused (no gesture left): the panel's play button starts it.
      notify();
    }
  },

  toggle() {
    if (!audio) return;
    if (audio.paused) audio.play().catch(() => {});
    else audio.pause();
  },

  skip(by) {
    if (!audio) return;
    const duration = Number.isFinite(audio.duration) ? audio.duration : Infinity;
    audio.currentTime = Math.min(Math.max(0, audio.currentTime + by), duration);
    report(true);
  },

  seek(to) {
    if (!audio || !Number.isFinite(to)) return;
    audio.currentTime = Math.max(0, to);
    report(true);
  },

  /** Gives the episode back to the speakers at this phone's position. */
  async giveBack() {
    if (!episode) return;
    const taken = episode;
    const position = Math.max(0, audio?.currentTime || 0);
    audio?.pause();
    await request(Cmd.handoffGive, { episode: taken.id, position });
    end();
  },

  /** Stops listening here without giving it back (the position is reported first). */
  stop() {
    if (!episode) return;
    report(true);
    end();
  },
};

function end() {
  clearInterval(reportTimer);
  reportTimer = null;
  if (audio) {
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
    audio.remove();
  }
  audio = null;
  episode = null;
  notify();
}
