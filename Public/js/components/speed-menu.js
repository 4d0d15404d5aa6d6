// Playback speed menu (a native select: on phones it opens the system picker).

import { h } from '../core/dom.js';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** Builds the menu; `onPick(value)` runs when the listener picks a speed. */
export function speedMenu(onPick) {
  const select = h('select', { class: 'speed-select', 'aria-label': 'Playback speed' },
    SPEEDS.map((value) => option(value)));
  select.addEventListener('change', () => onPick(Number(select.value)));
  const el = h('label', { class: 'speed' }, h('span', { class: 'speed-label', 'aria-hidden': 'true' }, 'Speed'), select);

  /** Shows the server's rate, adding an entry when another client chose an unusual one. */
  const update = (rate) => {
    const value = String(rate);
    if (![...select.options].some((o) => o.value === value)) {
      select.append(option(rate));
      [...select.options].sort((a, b) => Number(a.value) - Number(b.value)).forEach((o) => select.append(o));
    }
    if (select.value !== value) select.value = value;
  };
  return { el, update };
}

function option(value) {
  return h('option', { value: String(value) }, `${value}×`);
}
