// "Skipped the intro — Undo": the server's `state.skipped` (a podcast's intro, outro or a
// chapter by title, components/podcast-skips.js) shown on every client while the server keeps
// it (5 s); Undo sends `skip.undo` (back to where playing was; that skip is not made again).

import { Cmd } from '../core/commands.js';
import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';

/** The row (for the alerts strip) and `show(state)`. */
export function skipNotice() {
  const text = h('span', { class: 'playback-alert-text skip-notice-text' });
  const undo = h('button', { type: 'button', class: 'button button-small button-primary skip-undo' }, 'Undo');
  undo.addEventListener('click', () => socket.send(Cmd.skipUndo));
  const el = h('div', { class: 'playback-alert playback-notice skip-notice', role: 'status', hidden: true }, icon('volume'), text, undo);
  const show = (state) => {
    const skipped = state?.skipped;
    el.hidden = !skipped;
    if (!skipped) return;
    const words = describe(skipped);
    if (text.textContent !== words) text.textContent = words;
  };
  return { el, show };
}

function describe(skipped) {
  if (skipped.kind === 'intro') return `Skipped the intro (${Math.round(skipped.to - skipped.from)} s)`;
  if (skipped.kind === 'outro') return 'Skipped the outro: marked played';
  return `Skipped the chapter “${skipped.title ?? ''}”`;
}
