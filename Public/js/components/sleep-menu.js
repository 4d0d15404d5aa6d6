// The sleep timer: lives on the server (`state.sleep`), so every client shows the same countdown
// and a reload loses nothing. This module draws it: the menu (a modal dialog — presets 5–120 min,
// a custom number, the end of this episode or chapter, +5/+15 min, off), the full player's Sleep
// button, and the countdown the mini-player shows. The countdown counts only while playing, as
// the server's does: minutes from the `remaining` of the last state, the end of an episode or
// chapter from the position.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { clock } from '../core/format.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { focusBackOnClose, menuButton } from './menu-button.js';

export const SLEEP_PRESETS = [5, 10, 15, 30, 45, 60, 90, 120];
const MAX_MINUTES = 720;

// When each `state.sleep` object arrived: a `time` message keeps the object, a `state` brings a new one.
const arrivals = new WeakMap();
player.subscribe((state) => stamp(state?.sleep));

function stamp(sleep) {
  if (sleep && typeof sleep === 'object' && !arrivals.has(sleep)) arrivals.set(sleep, performance.now());
}

/** Seconds until the timer stops playback, as of now; null when no timer is set or the end is unknown. */
export function sleepLeft(state = player.state) {
  const sleep = state?.sleep;
  if (!sleep || typeof sleep !== 'object') return null;
  const rate = Number(state.rate) > 0 ? Number(state.rate) : 1;
  if (sleep.mode === 'episode' || sleep.mode === 'chapter') {
    const end = sleep.mode === 'chapter' && Number.isFinite(sleep.end) ? sleep.end : player.duration();
    if (!(end > 0)) return null;
    return Math.max(0, (end - player.position()) / rate);
  }
  if (!Number.isFinite(sleep.remaining)) return null;
  stamp(sleep);
  const running = Boolean(state.episode) && !state.paused;
  const elapsed = running ? (performance.now() - arrivals.get(sleep)) / 1000 : 0;
  return Math.max(0, sleep.remaining - elapsed);
}

/** "12:34", or "End of episode" / "End of chapter" when the end is not known yet; "" with no timer. */
export function sleepText(state = player.state) {
  const sleep = state?.sleep;
  if (!sleep) return '';
  const left = sleepLeft(state);
  if (left !== null) return clock(Math.ceil(left));
  return sleep.mode === 'chapter' ? 'End of chapter' : 'End of episode';
}

/** A sentence for the menu and screen readers. */
function sleepSummary(state) {
  const sleep = state?.sleep;
  if (!sleep) return 'Off';
  const left = sleepLeft(state);
  const time = left === null ? '' : ` (${clock(Math.ceil(left))})`;
  if (sleep.mode === 'episode') return `Stops at the end of this episode${time}`;
  if (sleep.mode === 'chapter') return `Stops at the end of this chapter${time}`;
  return `Stops in ${clock(Math.ceil(left ?? 0))}`;
}

let menu = null;

/** Opens the sleep timer menu (from the player's button or the `s` key). */
export function openSleepMenu() {
  menu ??= buildMenu();
  if (menu.dialog.open) return;
  menu.opener = document.activeElement;
  menu.render(player.state);
  menu.dialog.showModal();
  menu.first().focus();
}

function buildMenu() {
  const status = h('p', { class: 'sleep-status', role: 'status' });
  const send = (cmd, args, close = true) => {
    if (socket.send(cmd, args) !== null && close) dialog.close();
  };
  const presets = h('div', { class: 'sleep-presets' }, SLEEP_PRESETS.map((minutes) =>
    h('button', { type: 'button', class: 'button sleep-preset', dataset: { minutes }, on: { click: () => send(Cmd.sleep, { minutes }) } },
      minutes < 60 || minutes % 60 ? `${minutes} min` : `${minutes / 60} h`)));
  const custom = h('input', {
    type: 'number', class: 'sleep-custom-input', min: '1', max: String(MAX_MINUTES), step: '1', inputmode: 'numeric',
    placeholder: 'Minutes', 'aria-label': 'Minutes',
  });
  const customForm = h('form', { class: 'sleep-custom' },
    h('label', { class: 'sleep-custom-label' }, 'Other', custom, h('span', { 'aria-hidden': 'true' }, 'min')),
    h('button', { type: 'submit', class: 'button sleep-custom-set' }, 'Set'));
  customForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const minutes = Number(custom.value);
    if (!(minutes > 0 && minutes <= MAX_MINUTES)) {
      custom.setCustomValidity(`From 1 to ${MAX_MINUTES} minutes`);
      custom.reportValidity();
      return;
    }
    custom.setCustomValidity('');
    send(Cmd.sleep, { minutes });
  });
  custom.addEventListener('input', () => custom.setCustomValidity(''));
  const episodeEnd = h('button', { type: 'button', class: 'button sleep-until-episode', on: { click: () => send(Cmd.sleep, { until: 'episode' }) } }, 'End of episode');
  const chapterEnd = h('button', { type: 'button', class: 'button sleep-until-chapter', on: { click: () => send(Cmd.sleep, { until: 'chapter' }) } }, 'End of chapter');
  const active = h('div', { class: 'sleep-active' },
    h('button', { type: 'button', class: 'button sleep-extend', dataset: { minutes: 5 }, on: { click: () => send(Cmd.sleepExtend, { minutes: 5 }, false) } }, '+5 min'),
    h('button', { type: 'button', class: 'button sleep-extend', dataset: { minutes: 15 }, on: { click: () => send(Cmd.sleepExtend, { minutes: 15 }, false) } }, '+15 min'),
    h('button', { type: 'button', class: 'button sleep-cancel', on: { click: () => send(Cmd.sleepCancel) } }, 'Turn off'));
  const close = h('button', { type: 'button', class: 'button sleep-close', on: { click: () => dialog.close() } }, 'Close');
  const dialog = h('dialog', { class: 'dialog sleep-dialog', 'aria-labelledby': 'sleep-title' },
    h('h2', { id: 'sleep-title' }, icon('moon'), 'Sleep timer'),
    status, presets, customForm,
    h('div', { class: 'sleep-ends' }, episodeEnd, chapterEnd),
    active,
    h('div', { class: 'dialog-actions' }, close));
  document.body.append(dialog);

  const render = (state) => {
    status.textContent = sleepSummary(state);
    active.hidden = !state?.sleep;
    episodeEnd.disabled = !state?.episode;
    chapterEnd.disabled = !(state?.episode && Array.isArray(state.chapters) && state.chapters.length);
    dialog.classList.toggle('is-set', Boolean(state?.sleep));
  };
  let unsubscribe = null;
  focusBackOnClose(dialog, () => built.opener, () => {
    unsubscribe?.();
    unsubscribe = null;
  });
  // A tap on the backdrop (outside the box) closes.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) dialog.close();
  });
  const built = {
    dialog,
    opener: null,
    render(state) {
      render(state);
      unsubscribe ??= player.subscribe((next) => render(next));
    },
    first: () => presets.firstElementChild,
  };
  return built;
}

/** The full player's Sleep button: a moon and "Sleep", or the countdown while a timer is set.
 *  Returns { el, update(state) } — call `update` on every change and tick. */
export function sleepButton() {
  const { el, show } = menuButton('sleep', 'moon', 'Sleep', openSleepMenu);
  const update = (state) => {
    const set = Boolean(state?.sleep);
    show(set ? sleepText(state) : 'Sleep', set, set ? `Sleep timer: ${sleepSummary(state)}` : 'Sleep timer');
  };
  update(player.state);
  return { el, update };
}
