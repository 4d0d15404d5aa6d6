// Playback speed: a menu of presets (a native select: on phones it opens the system picker),
// with − / + buttons that step 0.05× either side. The server keeps the pitch (mpv's scaletempo2)
// and rounds every speed to the 0.05 grid, so what a menu shows is what plays.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';

/** The speeds a listener may choose (EarshotCore's PlaybackSpeed). */
export const SPEED = { min: 0.5, max: 3, step: 0.05 };
export const SPEED_PRESETS = [0.5, 0.75, 0.9, 1, 1.1, 1.2, 1.25, 1.3, 1.5, 1.75, 2, 2.5, 3];

/** `rate` on the 0.05 grid, inside 0.5…3. */
export function snapSpeed(rate) {
  const snapped = Math.round(Number(rate) / SPEED.step) * SPEED.step;
  return Math.min(SPEED.max, Math.max(SPEED.min, Math.round(snapped * 100) / 100));
}

/** "1.25×", "1×". */
export function speedText(rate) {
  return `${Number(Number(rate).toFixed(2))}×`;
}

/**
 * Builds the menu; `onPick(value)` runs when the listener picks a speed (null: "none", offered
 * only when `none` names it — a podcast without a speed of its own).
 * `steppers`: add the − / + buttons. Returns { el, select, update(rate|null) }.
 */
export function speedMenu(onPick, { label = 'Speed', ariaLabel = 'Playback speed', none = null, steppers = false } = {}) {
  const select = h('select', { class: 'speed-select', 'aria-label': ariaLabel },
    none ? h('option', { value: '' }, none) : null,
    SPEED_PRESETS.map((value) => option(value)));
  let shown = none ? null : 1;
  select.addEventListener('change', () => {
    const value = select.value === '' ? null : Number(select.value);
    shown = value;
    onPick(value);
  });
  const step = (direction) => {
    const next = snapSpeed((shown ?? 1) + direction * SPEED.step);
    if (next === shown) return;
    update(next); // at once: the server's state confirms it a moment later
    onPick(next);
  };
  const slower = steppers ? h('button', { type: 'button', class: 'speed-step speed-slower', 'aria-label': 'Slower (−0.05×)', on: { click: () => step(-1) } }, icon('minus')) : null;
  const faster = steppers ? h('button', { type: 'button', class: 'speed-step speed-faster', 'aria-label': 'Faster (+0.05×)', on: { click: () => step(1) } }, icon('plus')) : null;
  const el = h('div', { class: `speed${steppers ? ' speed-stepper' : ''}` },
    label ? h('span', { class: 'speed-label', 'aria-hidden': 'true' }, label) : null,
    slower, select, faster);

  /** Shows the server's rate (null: none), adding an entry when it is not a preset. */
  function update(rate) {
    const value = rate === null || rate === undefined ? (none ? '' : '1') : String(snapSpeed(rate));
    if (value !== '' && ![...select.options].some((o) => o.value === value)) {
      select.append(option(Number(value)));
      const sorted = [...select.options].sort((a, b) => (a.value === '' ? -1 : b.value === '' ? 1 : Number(a.value) - Number(b.value)));
      sorted.forEach((o) => select.append(o));
    }
    if (select.value !== value) select.value = value;
    shown = value === '' ? null : Number(value);
    if (slower) slower.disabled = (shown ?? 1) <= SPEED.min;
    if (faster) faster.disabled = (shown ?? 1) >= SPEED.max;
  }
  update(none ? null : 1);
  return { el, select, update };
}

function option(value) {
  return h('option', { value: String(value) }, speedText(value));
}
