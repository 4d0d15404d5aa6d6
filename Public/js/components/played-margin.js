// The played margin: stopping an episode this close to its end marks it played (and it starts
// from the top next time). A server setting (`state.settings.playedMargin`, changed with the
// `settings` command), so every client shows the same choice and a change reaches them all.

import { h } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';

const CHOICES = [0, 10, 30, 60, 120, 300, 600];

/** Builds the control; `update(settings)` shows the server's value. */
export function playedMarginSetting() {
  const select = h('select', {
    class: 'speed-select played-margin-select',
    'aria-label': 'Mark played when stopped within this much of the end',
  }, CHOICES.map(option));
  select.addEventListener('change', () => socket.send(Cmd.settings, { playedMargin: Number(select.value) }));
  const el = h('label', {
    class: 'speed played-margin',
    title: 'Stopping an episode this close to its end marks it played (at most its last tenth)',
  }, h('span', { class: 'speed-label', 'aria-hidden': 'true' }, 'Played in the last'), select);

  /** Shows the server's margin, adding an entry when it is not one of the choices (e.g. set
   *  with --played-margin). */
  const update = (settings) => {
    const margin = Number(settings?.playedMargin);
    if (!Number.isFinite(margin)) return;
    const value = String(margin);
    if (![...select.options].some((o) => o.value === value)) {
      select.append(option(margin));
      [...select.options].sort((a, b) => Number(a.value) - Number(b.value)).forEach((o) => select.append(o));
    }
    if (select.value !== value) select.value = value;
  };
  return { el, update };
}

function option(seconds) {
  return h('option', { value: String(seconds) }, label(seconds));
}

/** "at the end", "30 s", "2 min", "90 s". */
function label(seconds) {
  if (seconds === 0) return 'Only at the end';
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
