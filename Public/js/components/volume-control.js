// The host's volume, 0–130 % (above 100 amplifies quiet recordings), and mute: a mute button and
// a slider. A phone's own volume keys cannot reach the host's speakers, so on a phone this is the
// volume control, and it is drawn large (css/controls.css). While the listener drags, the
// server's updates do not move the thumb; changes go out at most every 100 ms.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';

export const VOLUME_MAX = 130;
const SEND_EVERY = 100; // ms

/** Builds the control; `update(state)` shows the server's volume and mute. */
export function volumeControl() {
  const mute = h('button', { type: 'button', class: 'volume-mute', 'aria-label': 'Mute', 'aria-pressed': 'false' }, icon('volume'));
  const input = h('input', {
    type: 'range', class: 'volume-input', min: '0', max: String(VOLUME_MAX), step: '1', value: '100',
    'aria-label': 'Volume',
  });
  const value = h('output', { class: 'volume-value', 'aria-hidden': 'true' }, '100 %');
  const el = h('div', { class: 'volume', role: 'group', 'aria-label': 'Volume' }, mute, input, value);

  let muted = false;
  let dragging = false;
  let lastSent = 0;
  let pending = null;

  const show = (volume) => {
    value.textContent = `${Math.round(volume)} %`;
    input.style.setProperty('--fill', `${(volume / VOLUME_MAX) * 100}%`);
    input.setAttribute('aria-valuetext', `${Math.round(volume)} %${muted ? ', muted' : ''}`);
    el.classList.toggle('is-loud', volume > 100);
  };
  const send = () => {
    clearTimeout(pending);
    pending = null;
    lastSent = performance.now();
    socket.send(Cmd.volume, { value: Number(input.value) });
  };
  input.addEventListener('input', () => {
    show(Number(input.value));
    const wait = SEND_EVERY - (performance.now() - lastSent);
    if (wait <= 0) send();
    else if (pending === null) pending = setTimeout(send, wait);
  });
  input.addEventListener('change', send);
  input.addEventListener('pointerdown', () => { dragging = true; });
  const release = () => { dragging = false; };
  input.addEventListener('pointerup', release);
  input.addEventListener('pointercancel', release);
  input.addEventListener('blur', release);
  // Arrow keys on the focused slider move it (the page's own ←/→ skip and ↑/↓ volume keys stay out).
  input.addEventListener('keydown', (event) => {
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'].includes(event.key)) {
      event.stopPropagation();
    }
  });
  mute.addEventListener('click', () => socket.send(Cmd.mute, { on: !muted }));

  /** Shows the server's volume and mute (not while the thumb is held). */
  const update = (state) => {
    const next = Boolean(state?.muted);
    if (next !== muted) {
      muted = next;
      mute.setAttribute('aria-pressed', String(muted));
      mute.setAttribute('aria-label', muted ? 'Unmute' : 'Mute');
      mute.replaceChildren(icon(muted ? 'volumeOff' : 'volume'));
      el.classList.toggle('is-muted', muted);
    }
    const volume = Number(state?.volume);
    if (!Number.isFinite(volume) || dragging || pending !== null) return;
    if (Number(input.value) !== volume) input.value = String(volume);
    show(volume);
  };
  show(100);
  return { el, update };
}
