// Where the host plays: mpv's audio outputs (`state.outputs`, e.g. "Autoselect device", a USB
// headset) and the one chosen (`state.output`, remembered by the server). The full player's
// Output button names it; its dialog lists every output and sends `output {device}`. A chosen
// output that is unplugged stays chosen (it is used again when it comes back) and is shown as
// not connected while "auto" stands in.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { roomsPanel } from './rooms-panel.js';

const AUTO = 'auto';
const ROOMS = 'snapcast'; // Snapcast's rooms, one more output while a snapserver is linked

// mpv lists every audio output's devices; with a sound server running, its devices (PulseAudio's
// or PipeWire's sinks, by their descriptions: "Headphones", "HDMI") are the ones a listener means,
// and ALSA's plugins ("Rate Converter Plugin…"), JACK, OSS and SDL are noise beside them.
const SOUND_SERVER = /^(pulse|pipewire)\//;

/** The outputs to offer: mpv's list with "auto" first (only the sound server's devices when one
 *  runs), plus the chosen one when it is gone. */
function choices(state) {
  let list = Array.isArray(state?.outputs) ? state.outputs.filter((o) => o && typeof o.name === 'string') : [];
  const chosen = typeof state?.output === 'string' ? state.output : AUTO;
  if (list.some((o) => SOUND_SERVER.test(o.name))) {
    list = list.filter((o) => o.name === AUTO || o.name === chosen || o.name === ROOMS || SOUND_SERVER.test(o.name));
  }
  if (!list.some((o) => o.name === AUTO)) list.unshift({ name: AUTO, description: 'Autoselect device' });
  // The rooms right after this computer: the two choices a listener weighs (the devices follow).
  const rooms = list.find((o) => o.name === ROOMS);
  if (rooms) list = [list.find((o) => o.name === AUTO), rooms, ...list.filter((o) => o.name !== AUTO && o.name !== ROOMS)];
  if (!list.some((o) => o.name === chosen)) list.push({ name: chosen, description: chosen, gone: true });
  return { list, chosen };
}

/** A short name for the chosen output. */
function chosenLabel(state) {
  const { list, chosen } = choices(state);
  const found = list.find((o) => o.name === chosen);
  if (chosen === AUTO) return 'This computer';
  return found?.gone ? `${found.description} (not connected)` : (found?.description || chosen);
}

let menu = null;

export function openOutputMenu() {
  menu ??= buildMenu();
  if (menu.dialog.open) return;
  menu.opener = document.activeElement;
  menu.render(player.state);
  menu.dialog.showModal();
  menu.dialog.querySelector('.output-choice[aria-checked="true"]')?.focus();
}

function buildMenu() {
  const list = h('div', { class: 'output-list', role: 'radiogroup', 'aria-labelledby': 'output-title' });
  const rooms = roomsPanel();
  const close = h('button', { type: 'button', class: 'button output-close', on: { click: () => dialog.close() } }, 'Close');
  const dialog = h('dialog', { class: 'dialog output-dialog', 'aria-labelledby': 'output-title' },
    h('h2', { id: 'output-title' }, icon('volume'), 'Output'),
    h('p', { class: 'output-hint' }, 'Where this computer plays. If it is unplugged while playing, playback pauses.'),
    list,
    rooms.el,
    h('div', { class: 'dialog-actions' }, close));
  document.body.append(dialog);
  let shown = null;
  const render = (state) => {
    rooms.update(state);
    const { list: outputs, chosen } = choices(state);
    const identity = JSON.stringify([outputs, chosen]);
    if (identity === shown) return;
    shown = identity;
    list.replaceChildren(...outputs.map((output) => {
      const checked = output.name === chosen;
      return h('button', {
        type: 'button', class: 'output-choice', role: 'radio', 'aria-checked': String(checked),
        dataset: { device: output.name }, disabled: output.gone ? true : null,
        on: { click: () => { if (!checked) socket.send(Cmd.output, { device: output.name }); } },
      }, h('span', { class: 'output-check' }, checked ? icon('check') : null),
      h('span', { class: 'output-name' }, output.name === AUTO ? 'This computer (the system’s choice)' : output.description || output.name),
      output.gone ? h('span', { class: 'output-gone' }, 'not connected') : null);
    }));
  };
  let unsubscribe = null;
  dialog.addEventListener('close', () => {
    unsubscribe?.();
    unsubscribe = null;
    shown = null;
    if (built.opener instanceof HTMLElement && built.opener.isConnected) built.opener.focus({ preventScroll: true });
  });
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) dialog.close();
  });
  const built = {
    dialog,
    opener: null,
    render(state) {
      render(state);
      unsubscribe ??= player.subscribe((next, kind) => { if (kind !== 'tick') render(next); });
    },
  };
  return built;
}

/** The full player's Output button. Returns { el, update(state) }. */
export function outputButton() {
  const label = h('span', { class: 'output-button-label' }, 'This computer');
  const el = h('button', { type: 'button', class: 'button output-button', 'aria-haspopup': 'dialog', on: { click: openOutputMenu } },
    icon('volume'), h('span', { class: 'output-button-kicker' }, 'Output'), label);
  const update = (state) => {
    const text = chosenLabel(state);
    if (label.textContent !== text) label.textContent = text;
    el.setAttribute('aria-label', `Output: ${text}`);
  };
  update(player.state);
  return { el, update };
}
