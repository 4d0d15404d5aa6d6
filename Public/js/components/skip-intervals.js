// How far the skip buttons, the ←/→ keys and the lock screen's seek controls jump: back and
// forward apart. Server settings (`state.settings.skipBack` / `skipForward`, changed with the
// `settings` command), so every client skips the same and shows the same.

import { h } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';

const CHOICES = [5, 10, 15, 20, 30, 45, 60, 90, 120];
export const DEFAULT_SKIP = { back: 15, forward: 30 };

/** The skip intervals now in force: {back, forward} in seconds. */
export function skipIntervals(state = player.state) {
  const back = Number(state?.settings?.skipBack);
  const forward = Number(state?.settings?.skipForward);
  return {
    back: back > 0 ? back : DEFAULT_SKIP.back,
    forward: forward > 0 ? forward : DEFAULT_SKIP.forward,
  };
}

/** Two selects (back, forward); `update(settings)` shows the server's values. */
export function skipIntervalSettings() {
  const back = select('skipBack', 'Skip back');
  const forward = select('skipForward', 'Skip forward');
  const el = h('div', { class: 'skip-intervals' }, back.el, forward.el);
  const update = (settings) => {
    back.show(Number(settings?.skipBack));
    forward.show(Number(settings?.skipForward));
  };
  return { el, update };
}

function select(key, words) {
  const input = h('select', { class: `speed-select skip-select skip-${key === 'skipBack' ? 'back' : 'forward'}-select`, 'aria-label': `${words} by` },
    CHOICES.map(option));
  input.addEventListener('change', () => socket.send(Cmd.settings, { [key]: Number(input.value) }));
  const el = h('label', { class: 'speed skip-interval' }, h('span', { class: 'speed-label', 'aria-hidden': 'true' }, words), input);
  /** Shows the server's value, adding an entry when it is not one of the choices. */
  const show = (seconds) => {
    if (!(seconds > 0)) return;
    const value = String(seconds);
    if (![...input.options].some((o) => o.value === value)) {
      input.append(option(seconds));
      [...input.options].sort((a, b) => Number(a.value) - Number(b.value)).forEach((o) => input.append(o));
    }
    if (input.value !== value) input.value = value;
  };
  return { el, show };
}

function option(seconds) {
  return h('option', { value: String(seconds) }, seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`);
}
