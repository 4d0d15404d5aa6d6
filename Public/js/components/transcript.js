// An episode's transcript (GET /api/episodes/{id}/transcript), on the episode page and in the
// full player. Cues in a scrolling box: the time (timed formats), the speaker where it changes,
// the text (plain text, set with textContent). A tap on a timed cue seeks there when this
// episode is loaded, else plays it from there (components/chapter-list.js's playChapter).
// While this episode plays, the cue under the playing time is highlighted and followed: the box
// scrolls to it (smoothly, unless motion is unwelcome), except while the listener scrolls or
// tabs through it; following resumes after a few quiet seconds, or at once with Follow.
//
// Long transcripts (a three-hour show is thousands of cues) are windowed: cues are grouped in
// blocks of CHUNK; every block is an empty placeholder of its (estimated, then measured)
// height until it comes near the visible part of the box (an IntersectionObserver on the
// box), is built then, and emptied again when it leaves — a few hundred rows in the page at
// most, whatever the length. The browser's scroll anchoring keeps the text still while
// placeholders above take their real heights. A block holding the focus is never emptied, and
// the blocks beside a focused cue are built at once, so Tab walks the whole list.

import { h } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { clock } from '../core/format.js';
import { player } from '../core/player-state.js';
import { playChapter } from './chapter-list.js';
import { icon } from '../core/icons.js';

const CHUNK = 40; // cues per block
const AHEAD = '600px 0px'; // blocks this near the visible part are built
const ROW_GUESS = 52; // px: a block's height before any was measured, per cue
const RESUME_MS = 5000; // following resumes this long after the listener last scrolled
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

let panels = 0; // ids for headings

/**
 * The transcript of episode `episodeId`. Options: `at` (seconds: scroll to the cue said then and
 * offer to play from it), `quiet` (true: no section at all until cues arrive, and none when the
 * episode has no transcript — the full player's way; false: "Loading transcript…" first).
 * Returns { el, destroy }.
 */
export function transcriptPanel(episodeId, { at = null, quiet = false, className = '' } = {}) {
  const number = ++panels;
  const status = h('p', { class: 'transcript-status', role: 'status' }, quiet ? '' : 'Loading transcript…');
  const follow = h('button', { type: 'button', class: 'button button-small transcript-follow', hidden: true,
    'aria-label': 'Follow playback in the transcript' }, 'Follow');
  const playFrom = h('button', { type: 'button', class: 'button button-small button-primary transcript-play-at', hidden: true });
  const box = h('div', { class: 'transcript-box', role: 'list', 'aria-labelledby': `transcript-title-${number}`, hidden: true });
  const el = h('section', { class: `transcript ${className}`.trim(), 'aria-labelledby': `transcript-title-${number}`, hidden: quiet },
    h('div', { class: 'transcript-head' },
      h('h2', { id: `transcript-title-${number}`, class: 'section-title' }, 'Transcript'),
      h('span', { class: 'transcript-actions' }, playFrom, follow)),
    status, box);

  const controller = new AbortController();
  let view = null;
  getJSON(`/api/episodes/${episodeId}/transcript`, { signal: controller.signal })
    .then((body) => {
      const cues = cleanCues(body?.cues);
      if (!cues.length) {
        if (quiet) el.hidden = true;
        else status.textContent = 'The transcript is empty.';
        return;
      }
      el.hidden = false;
      status.textContent = '';
      status.hidden = true;
      box.hidden = false;
      view = cueList(episodeId, cues, box, follow, playFrom, at);
    })
    .catch((error) => {
      if (error?.name === 'AbortError') return;
      if (error?.status === 404) { // no transcript: nothing to show
        el.hidden = true;
        return;
      }
      el.hidden = false;
      status.textContent = sentence(error?.message);
      status.classList.add('is-problem');
    });

  return {
    el,
    destroy() {
      controller.abort();
      view?.destroy();
    },
  };
}

/** The full player's transcript: the loaded episode's, replaced when another one loads; shows
 *  only when that episode has one. Returns { el, update(state), destroy }: call `update` on every
 *  `state` message. */
export function playerTranscript() {
  const el = h('div', { class: 'player-transcript' });
  let shownId = null;
  let panel = null;
  return {
    el,
    update(state) {
      const id = state?.episode?.id ?? null;
      if (id === shownId) return;
      shownId = id;
      panel?.destroy();
      panel = id === null ? null : transcriptPanel(id, { quiet: true });
      el.replaceChildren(...(panel ? [panel.el] : []));
    },
    destroy() {
      panel?.destroy();
    },
  };
}

/** The cues the page can show: text strings, times finite and not negative (or null). */
function cleanCues(list) {
  if (!Array.isArray(list)) return [];
  const time = (value) => (value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Math.max(0, Number(value)));
  return list
    .filter((cue) => cue && typeof cue.text === 'string' && cue.text.trim() !== '')
    .map((cue) => ({
      start: time(cue.start),
      end: time(cue.end),
      speaker: typeof cue.speaker === 'string' && cue.speaker.trim() ? cue.speaker.trim() : null,
      text: cue.text,
    }));
}

/** The windowed list in `box`, the highlight, following, taps. Returns { destroy }. */
function cueList(episodeId, cues, box, follow, playFrom, at) {
  const section = box.closest('.transcript');
  const timed = cues.filter((cue) => cue.start !== null).length === cues.length;
  if (!timed) box.tabIndex = 0; // no buttons inside: the box itself takes the focus to scroll
  const starts = timed ? cues.map((cue) => cue.start) : [];
  const sorted = starts.every((start, i) => i === 0 || starts[i - 1] <= start);
  let highlighted = -1; // the row marked current (-1: none)
  let target = -1; // the deep link's cue until playback takes over (-1: none)
  let following = true; // the box follows the playing cue
  let resumeTimer = null;
  const chunks = [];
  const byNode = new Map();
  for (let first = 0; first < cues.length; first += CHUNK) {
    const node = h('div', { class: 'transcript-chunk', role: 'none' });
    const chunk = { node, first, last: Math.min(first + CHUNK, cues.length) - 1, built: false, height: null };
    chunks.push(chunk);
    byNode.set(node, chunk);
  }
  let rowHeight = ROW_GUESS; // the measured average, once a block was built
  const measured = { rows: 0, px: 0 };
  for (const chunk of chunks) setPlaceholder(chunk);
  box.replaceChildren(...chunks.map((chunk) => chunk.node));

  function setPlaceholder(chunk) {
    chunk.node.style.height = `${chunk.height ?? (chunk.last - chunk.first + 1) * rowHeight}px`; // CSSOM: the CSP allows no style attributes
  }

  function build(chunk) {
    if (chunk.built) return;
    chunk.built = true;
    const rows = [];
    for (let i = chunk.first; i <= chunk.last; i += 1) rows.push(row(i));
    chunk.node.replaceChildren(...rows);
    chunk.node.style.height = '';
    chunk.node.classList.add('is-built');
    const height = chunk.node.offsetHeight;
    if (height > 0) {
      chunk.height = height;
      measured.rows += chunk.last - chunk.first + 1;
      measured.px += height;
      const average = measured.px / measured.rows;
      if (Math.abs(average - rowHeight) > 4) { // better guesses for the blocks not built yet
        rowHeight = average;
        for (const other of chunks) if (!other.built && other.height === null) setPlaceholder(other);
      }
    }
    if (highlighted >= chunk.first && highlighted <= chunk.last) paint(highlighted, true);
  }

  function empty(chunk) {
    if (!chunk.built || chunk.node.contains(document.activeElement)) return;
    const height = chunk.node.offsetHeight;
    if (height > 0) chunk.height = height;
    chunk.built = false;
    chunk.node.classList.remove('is-built');
    chunk.node.replaceChildren();
    setPlaceholder(chunk);
  }

  function row(i) {
    const cue = cues[i];
    const speaker = cue.speaker && (i === 0 || cues[i - 1].speaker !== cue.speaker)
      ? h('p', { class: 'cue-speaker' }, cue.speaker) : null;
    const body = cue.start !== null
      ? h('button', { type: 'button', class: 'cue-button', dataset: { index: i } },
        h('span', { class: 'cue-time' }, clock(cue.start)), h('span', { class: 'cue-text' }, cue.text))
      : h('p', { class: 'cue-text' }, cue.text);
    return h('div', { class: 'cue', role: 'listitem', dataset: { index: i },
      'aria-posinset': i + 1, 'aria-setsize': cues.length }, speaker, body);
  }

  const chunkOf = (index) => chunks[Math.floor(index / CHUNK)];
  const rowNode = (index) => chunkOf(index)?.node.querySelector(`.cue[data-index="${index}"]`) ?? null;

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const chunk = byNode.get(entry.target);
      if (!chunk) continue;
      if (entry.isIntersecting) build(chunk);
      else empty(chunk);
    }
  }, { root: box, rootMargin: AHEAD });
  for (const chunk of chunks) observer.observe(chunk.node);

  // Tab reaches the last built row: its neighbours' blocks are built before the next Tab.
  const onFocus = (event) => {
    const index = Number(event.target.closest?.('.cue')?.dataset.index);
    if (!Number.isInteger(index)) return;
    const chunk = chunkOf(index);
    const position = chunks.indexOf(chunk);
    for (const near of [chunks[position - 1], chunks[position + 1]]) if (near) build(near);
    userScrolled();
  };
  box.addEventListener('focusin', onFocus);

  box.addEventListener('click', (event) => {
    const button = event.target.closest?.('.cue-button');
    if (!button) return;
    const cue = cues[Number(button.dataset.index)];
    if (cue?.start === null || cue?.start === undefined) return;
    target = -1;
    following = true;
    playChapter(episodeId, cue.start);
  });

  // Following: paused by the listener's own scrolling (wheel, touch, keys, the scrollbar),
  // resumed after RESUME_MS or by Follow. Scrolls this code makes are not input events.
  function userScrolled() {
    following = false;
    clearTimeout(resumeTimer);
    resumeTimer = setTimeout(() => { following = true; update(true); }, RESUME_MS);
    showFollow();
  }
  const onWheel = () => userScrolled();
  const onKey = (event) => { if (SCROLL_KEYS.has(event.key) && !event.target.closest?.('button')) userScrolled(); };
  const onPointer = (event) => { if (event.target === box) userScrolled(); }; // the scrollbar
  box.addEventListener('wheel', onWheel, { passive: true });
  box.addEventListener('touchmove', onWheel, { passive: true });
  box.addEventListener('keydown', onKey);
  box.addEventListener('pointerdown', onPointer);
  follow.addEventListener('click', () => {
    clearTimeout(resumeTimer);
    following = true;
    showFollow();
    update(true);
  });

  const playingHere = () => player.episode?.id === episodeId && !player.paused;
  function showFollow() {
    follow.hidden = !timed || following || !playingHere();
  }

  // The deep link (?t=): the cue said at `at`, scrolled to and offered to play from.
  if (timed && at !== null && Number.isFinite(at)) {
    target = Math.max(0, cueAt(at + 0.01));
    const start = cues[target].start;
    playFrom.replaceChildren(icon('play'), h('span', { class: 'button-label' }, `Play from ${clock(start)}`));
    playFrom.hidden = false;
    playFrom.addEventListener('click', () => {
      target = -1;
      following = true;
      playChapter(episodeId, start);
    });
  }

  /** The index of the cue playing at `seconds` (the last one started by then), -1 before the first. */
  function cueAt(seconds) {
    if (!timed) return -1;
    if (!sorted) {
      let best = -1;
      cues.forEach((cue, i) => { if (cue.start <= seconds && (best < 0 || cue.start >= cues[best].start)) best = i; });
      return best;
    }
    let low = 0;
    let high = starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid] <= seconds) { found = mid; low = mid + 1; } else high = mid - 1;
    }
    return found;
  }

  function paint(index, on) {
    const node = rowNode(index);
    if (!node) return;
    node.classList.toggle('is-current', on);
    const button = node.querySelector('.cue-button');
    if (on) button?.setAttribute('aria-current', 'true');
    else button?.removeAttribute('aria-current');
  }

  /** Scrolls the box (never the page) so row `index` sits a third of the way down, when it is
   *  not already in the upper part of what shows. */
  function reveal(index, smooth) {
    const chunk = chunkOf(index);
    if (!chunk) return;
    build(chunk);
    const node = rowNode(index);
    if (!node || box.clientHeight === 0) return;
    const top = node.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const view = box.clientHeight;
    if (top >= view * 0.08 && top + node.offsetHeight <= view * 0.7) return;
    const distance = top - view / 3;
    const calm = matchMedia('(prefers-reduced-motion: reduce)').matches;
    const glide = smooth && !calm && Math.abs(distance) < view * 2;
    box.scrollTo({ top: box.scrollTop + distance, behavior: glide ? 'smooth' : 'auto' });
  }

  function update(force = false) {
    const loaded = player.episode?.id === episodeId;
    const playing = playingHere();
    section?.classList.toggle('is-live', loaded); // the marked cue follows the playing time
    if (playing) target = -1; // playback took over from the deep link
    let index = -1;
    if (target >= 0) index = target;
    else if (loaded) index = cueAt(player.position() + 0.05);
    if (index !== highlighted) {
      if (highlighted >= 0) paint(highlighted, false);
      highlighted = index;
      if (index >= 0) paint(index, true);
      if (index >= 0 && playing && following) reveal(index, true);
    } else if (force && index >= 0 && playing && following) {
      reveal(index, true);
    }
    showFollow();
  }

  const unsubscribe = player.subscribe(() => update());
  update();
  if (target >= 0) {
    // The page first: the box on screen, then the cue in the box.
    requestAnimationFrame(() => {
      if (!box.isConnected) return;
      reveal(target, false);
      box.closest('.transcript')?.scrollIntoView({ block: 'start' });
    });
  }

  return {
    destroy() {
      unsubscribe();
      observer.disconnect();
      clearTimeout(resumeTimer);
    },
  };
}

/** The server's message as a sentence. */
function sentence(message) {
  const text = String(message || 'The transcript could not be loaded.');
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
