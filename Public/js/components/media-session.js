// Lock-screen controls and media keys. Browsers route them only to a page that is
// itself playing audible media started by a user gesture, so after the first
// gesture we loop a near-silent clip whose play/pause mirrors the server, and we
// describe the server's episode through navigator.mediaSession.
// A per-device switch (localStorage) turns it off: on a phone the clip pauses other audio.

import { h, safeUrl } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { player } from '../core/player-state.js';

const STORAGE_KEY = 'earshot.mediaSession';
const CLIP = '/media/keepalive.mp3';
const DEFAULT_SKIP = 15;
const session = 'mediaSession' in navigator ? navigator.mediaSession : null;

let audio = null;
let gestured = false;
let metadataFor = null; // episode identity the metadata describes

/** Per-device switch. */
export const mediaSessionSetting = {
  get enabled() {
    try {
      return localStorage.getItem(STORAGE_KEY) !== 'off';
    } catch {
      return true;
    }
  },
  set enabled(on) {
    try {
      localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
    } catch { /* private mode: the switch lasts for this page only */ }
    if (!on) dropClip();
    mirror();
  },
};

/** Registers handlers and starts mirroring the player state. */
export function initMediaSession() {
  // Every gesture re-runs the mirror inside the gesture itself: browsers that only let
  // media start from a gesture (iOS Safari) get their chance, and a failed start retries.
  const onGesture = () => {
    gestured = true;
    mirror();
  };
  for (const type of ['pointerup', 'keydown', 'click']) window.addEventListener(type, onGesture, { capture: true, passive: true });

  if (session) {
    const handlers = {
      play: () => socket.send('resume'),
      pause: () => socket.send('pause'),
      stop: () => socket.send('stop'),
      seekbackward: (details) => socket.send('skip', { by: -(details?.seekOffset || DEFAULT_SKIP) }),
      seekforward: (details) => socket.send('skip', { by: details?.seekOffset || DEFAULT_SKIP }),
      previoustrack: () => socket.send('previous'),
      nexttrack: () => socket.send('next'),
      seekto: (details) => {
        if (Number.isFinite(details?.seekTime)) socket.send('seek', { to: details.seekTime });
      },
    };
    for (const [action, fn] of Object.entries(handlers)) {
      try {
        session.setActionHandler(action, fn);
      } catch { /* this browser does not know the action */ }
    }
  }
  player.subscribe((state, kind) => {
    if (kind !== 'tick') mirror();
  });
  mirror();
}

/** Makes the clip, metadata, playback state and position match the server. */
function mirror() {
  const episode = player.episode;
  const playing = Boolean(episode) && !player.paused;
  mirrorClip(playing);
  if (!session) return;
  describe(episode);
  session.playbackState = !episode ? 'none' : playing ? 'playing' : 'paused';
  setPosition(episode);
}

function mirrorClip(playing) {
  if (!gestured || !mediaSessionSetting.enabled) return;
  if (!audio) {
    // In the document (hidden) so it can be inspected; it is the page's only media element.
    audio = h('audio', { class: 'keepalive', src: CLIP, loop: true, preload: 'auto', hidden: true });
    audio.volume = 0.05; // quiet, but not muted: muted media gets no lock-screen controls
    document.body.append(audio);
  }
  if (playing && audio.paused) audio.play().catch(() => { /* no gesture yet or no clip: try on the next change */ });
  else if (!playing && !audio.paused) audio.pause();
}

function dropClip() {
  if (!audio) return;
  audio.pause();
  audio.removeAttribute('src');
  audio.load();
  audio.remove();
  audio = null;
}

function describe(episode) {
  const identity = episode ? `${episode.id}\n${episode.title}\n${episode.podcast}\n${episode.artwork}` : null;
  if (identity === metadataFor) return;
  metadataFor = identity;
  if (!episode || typeof MediaMetadata === 'undefined') {
    session.metadata = null;
    return;
  }
  const src = safeUrl(episode.artwork);
  const art = src ? [{ src, sizes: '512x512', ...imageType(src) }] : [];
  session.metadata = new MediaMetadata({
    title: episode.title ?? '',
    artist: episode.podcast ?? '',
    album: 'Earshot',
    artwork: art,
  });
}

function setPosition(episode) {
  if (typeof session.setPositionState !== 'function') return;
  const duration = player.duration();
  try {
    if (!episode || !(duration > 0)) {
      session.setPositionState(); // unknown length: clear it rather than lie
      return;
    }
    const rate = Number(player.state?.rate) > 0 ? Number(player.state.rate) : 1;
    const position = Math.min(Math.max(player.position(), 0), duration);
    session.setPositionState({ duration, position, playbackRate: rate });
  } catch { /* a browser that rejects a value we already clamped: leave the old one */ }
}

function imageType(url) {
  const ext = new URL(url).pathname.split('.').pop().toLowerCase();
  const types = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', svg: 'image/svg+xml', avif: 'image/avif' };
  return types[ext] ? { type: types[ext] } : {};
}
