// The seek bar of the full player, with a tick at each chapter start. While the listener drags
// it (pointer or keys) server updates do not move it; on release it seeks, and it keeps showing
// the dropped time until the server reports a position near it, so it never snaps back.

import { h } from '../core/dom.js';
import { clock } from '../core/format.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';

const SETTLE_TOLERANCE = 2; // seconds: the server has caught up with our seek
const SETTLE_TIMEOUT = 3000; // ms: give up waiting (the seek failed or was clamped)

/** Builds the scrubber; call `update()` on every state change and tick. */
export function scrubber() {
  const input = h('input', { type: 'range', class: 'scrubber-input', min: '0', max: '0', step: '1', value: '0', 'aria-label': 'Seek' });
  const elapsed = h('span', { class: 'elapsed' }, '0:00');
  const remaining = h('span', { class: 'remaining' }, '−0:00');
  // Chapter starts as ticks over the track (decorative: the chapter list is the accessible way).
  const marks = h('div', { class: 'scrubber-marks', 'aria-hidden': 'true' });
  const el = h('div', { class: 'scrubber' }, input, marks, h('div', { class: 'scrubber-times' }, elapsed, remaining));
  let marksKey = null;

  let dragging = false; // pointer held or key down on the bar
  let target = null; // { to, at } — a seek we sent and wait to see reflected

  const show = (position, duration) => {
    elapsed.textContent = clock(position);
    remaining.textContent = `−${clock(Math.max(duration - position, 0))}`;
    input.style.setProperty('--fill', duration > 0 ? `${(position / duration) * 100}%` : '0%');
    input.setAttribute('aria-valuetext', `${clock(position)} of ${clock(duration)}`);
  };

  // One tick per chapter start inside the episode (not at 0: the track's own end marks that);
  // `--at` is the fraction of the track, which CSS turns into the thumb's centre at that time.
  const showMarks = (duration) => {
    const chapters = Array.isArray(player.state?.chapters) ? player.state.chapters : [];
    const starts = duration > 0
      ? chapters.map((c) => Number(c?.start)).filter((t) => Number.isFinite(t) && t > 0 && t < duration)
      : [];
    const key = `${duration}|${starts.join(',')}`;
    if (key === marksKey) return;
    marksKey = key;
    marks.replaceChildren(...starts.map((start) => {
      const mark = h('span', { class: 'scrubber-mark', dataset: { start } });
      mark.style.setProperty('--at', String(start / duration));
      return mark;
    }));
  };

  const commit = () => {
    const to = Number(input.value);
    // Pointer release and the `change` that follows it describe the same seek.
    if (target && target.to === to && performance.now() - target.at < 1000) return;
    target = { to, at: performance.now() };
    socket.send(Cmd.seek, { to });
  };

  input.addEventListener('pointerdown', () => { dragging = true; });
  // The pointer may be released outside the bar; listen on the window.
  const release = () => {
    if (!dragging) return;
    dragging = false;
    commit();
  };
  window.addEventListener('pointerup', release);
  window.addEventListener('pointercancel', release);
  input.addEventListener('keydown', (event) => {
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'].includes(event.key)) dragging = true;
  });
  input.addEventListener('keyup', () => { dragging = false; });
  input.addEventListener('input', () => show(Number(input.value), Number(input.max)));
  // `change` comes on pointer release and on each key press.
  input.addEventListener('change', commit);

  const update = () => {
    const duration = player.duration();
    input.max = String(duration);
    input.disabled = !(duration > 0);
    showMarks(duration);
    if (dragging) return;
    let position = player.position();
    if (target) {
      const caughtUp = Math.abs(position - target.to) <= SETTLE_TOLERANCE;
      if (caughtUp || performance.now() - target.at > SETTLE_TIMEOUT) target = null;
      else position = target.to;
    }
    input.value = String(position);
    show(position, duration);
  };

  const destroy = () => {
    window.removeEventListener('pointerup', release);
    window.removeEventListener('pointercancel', release);
  };
  return { el, update, destroy };
}
