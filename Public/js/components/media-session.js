// Lock-screen controls and media keys. Browsers route them only to a page that is
// itself playing audible media started by a user gesture, so after the first
// gesture we loop a near-silent clip whose play/pause mirrors the server, and we
// describe the server's episode through navigator.mediaSession.
// A per-device switch (localStorage) turns it off: on a phone the clip pauses other audio.
// While this phone plays an episode itself (core/handoff.js), the lock screen is that episode's:
// its own <audio> is the media, the clip rests and the actions drive the phone's player.

import { artworkSet } from '../core/artwork-url.js';
import { h, safeUrl } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { skipIntervals } from './skip-intervals.js';
import { handoff } from '../core/handoff.js';

const STORAGE_KEY = 'earshot.mediaSession';
const CLIP = '/media/keepalive.mp3';
const session = 'mediaSession' in navigator ? navigator.mediaSession : null;

let audio = null;
let gestured = false;
let metadataFor = null; // episode identity the metadata describes
// The phone may pause the clip itself (a call, another app taking the audio). That is never a
// reason to pause the host: only explicit actions are (the action handlers below, the buttons).
// Such a pause only stops us restarting the clip until something explicit happens.
let interrupted = false; // the clip was paused by someone else
let lastPlaying = null; // the host's play state the clip last mirrored
let sounding = false; // the clip has played ('playing') since we last paused it ourselves

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
    interrupted = false; // the listener is back at the page: the clip may start again
    sounding = false;
    mirror();
  };
  for (const type of ['pointerup', 'keydown', 'click']) window.addEventListener(type, onGesture, { capture: true, passive: true });

  if (session) {
    const handlers = {
      play: () => socket.send(Cmd.resume),
      pause: () => socket.send(Cmd.pause),
      stop: () => socket.send(Cmd.stop),
      // The browser's offset when it names one, else the listener's intervals.
      seekbackward: (details) => socket.send(Cmd.skip, { by: -(details?.seekOffset || skipIntervals().back) }),
      seekforward: (details) => socket.send(Cmd.skip, { by: details?.seekOffset || skipIntervals().forward }),
      previoustrack: () => socket.send(Cmd.previous),
      nexttrack: () => socket.send(Cmd.next),
      seekto: (details) => {
        if (Number.isFinite(details?.seekTime)) socket.send(Cmd.seek, { to: details.seekTime });
      },
    };
    // The phone's own player while it has the episode (previous/next stay the queue's).
    const onPhone = {
      play: () => { if (!handoff.playing) handoff.toggle(); },
      pause: () => { if (handoff.playing) handoff.toggle(); },
      stop: () => { if (handoff.playing) handoff.toggle(); },
      seekbackward: (details) => handoff.skip(-(details?.seekOffset || skipIntervals().back)),
      seekforward: (details) => handoff.skip(details?.seekOffset || skipIntervals().forward),
      seekto: (details) => handoff.seek(details?.seekTime),
    };
    for (const [action, host] of Object.entries(handlers)) {
      const fn = onPhone[action] ? (details) => (handoff.active ? onPhone[action](details) : host(details)) : host;
      try {
        session.setActionHandler(action, fn);
      } catch { /* this browser does not know the action */ }
    }
  }
  player.subscribe((state, kind) => {
    if (kind !== 'tick') mirror();
  });
  handoff.subscribe(mirror);
  mirror();
}

/** Makes the clip, metadata, playback state and position match the server. */
function mirror() {
  if (handoff.active) {
    mirrorClip(false);
    if (!session) return;
    describe(handoff.episode);
    session.playbackState = handoff.playing ? 'playing' : 'paused';
    const duration = handoff.audio?.duration;
    try {
      if (Number.isFinite(duration) && duration > 0) {
        session.setPositionState({ duration, position: Math.min(handoff.position(), duration), playbackRate: handoff.audio.playbackRate || 1 });
      }
    } catch { /* a value the browser rejects: keep the old one */ }
    return;
  }
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
    // Deliberately no socket.send here: see `interrupted` above.
    // We pause the clip only when the host is paused; a pause while it plays came from elsewhere.
    audio.addEventListener('pause', () => { if (lastPlaying) interrupted = true; });
    audio.addEventListener('playing', () => { interrupted = false; sounding = true; });
    document.body.append(audio);
  }
  // The host started or stopped (an explicit action somewhere): mirror it even after an interruption.
  if (playing !== lastPlaying) {
    interrupted = false;
  } else if (playing && sounding && audio.paused) {
    // Paused by someone else, and its 'pause' event not yet delivered: a state message can
    // arrive first (both are queued tasks), and must not take it for a clip that never started.
    interrupted = true;
  }
  lastPlaying = playing;
  if (playing && audio.paused && !interrupted) {
    audio.play().catch(() => { /* no gesture yet or no clip: try on the next change */ });
  } else if (!playing && !audio.paused) {
    sounding = false;
    audio.pause();
  }
}

function dropClip() {
  if (!audio) return;
  sounding = false;
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
  // The server's kept copies in every size (core/artwork-url.js); our own files as they are.
  const art = artworkSet(episode.artwork) ?? (src ? [{ src, sizes: '512x512', ...imageType(src) }] : []);
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
