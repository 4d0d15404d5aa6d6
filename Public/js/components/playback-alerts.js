// What went wrong with playback, on every client and every view: the server's `state.error`
// (an episode that could not be played — the queue has moved on) and `state.notice` (why it
// paused or changed without anyone asking: an output unplugged, the player restarted). A strip
// at the top of the page until the message changes or the listener dismisses it (dismissing is
// this browser's business: the server keeps the message for clients that join later). When the
// output playback paused for is plugged in again while still paused, `state.resumeOffer` names
// it and the notice row offers a Resume button (the `resume` command); the server clears the
// offer when playback resumes or another episode loads, and the button goes with it. A skip the
// server just made (`state.skipped`) has a row of its own with Undo (components/skip-notice.js).

import { Cmd } from '../core/commands.js';
import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { player } from '../core/player-state.js';
import { socket } from '../core/socket.js';
import { skipNotice } from './skip-notice.js';

/** Puts the strip before `anchor` (the view container) and keeps it current. */
export function initPlaybackAlerts(anchor) {
  if (!anchor) return;
  const error = alertRow('error', 'alert');
  const resume = h('button', { type: 'button', class: 'button button-small button-primary playback-alert-resume', hidden: true }, 'Resume');
  resume.addEventListener('click', () => socket.send(Cmd.resume));
  const notice = alertRow('notice', 'status', resume);
  const skipped = skipNotice();
  const strip = h('div', { class: 'playback-alerts' }, error.el, notice.el, skipped.el);
  anchor.before(strip);
  const render = (state, kind) => {
    if (kind === 'tick') return;
    error.show(state?.error ?? null);
    notice.show(state?.notice ?? null);
    skipped.show(state);
    const offer = state?.resumeOffer;
    const offered = typeof offer === 'string' && offer !== '';
    resume.hidden = !offered;
    if (offered) resume.setAttribute('aria-label', `Resume on ${offer}`);
    else resume.removeAttribute('aria-label');
  };
  player.subscribe(render);
  render(player.state, 'state');
}

/** One row of the strip: an icon, the message, `action` (a button, or nothing) and Dismiss. */
function alertRow(kind, role, action = null) {
  const text = h('span', { class: 'playback-alert-text' });
  const dismiss = h('button', { type: 'button', class: 'icon-button playback-alert-dismiss', 'aria-label': 'Dismiss' }, icon('close'));
  const el = h('div', { class: `playback-alert playback-${kind}`, role, hidden: true }, icon(kind === 'error' ? 'alert' : 'volume'), text, action, dismiss);
  let dismissed = null;
  dismiss.addEventListener('click', () => { dismissed = text.textContent; el.hidden = true; });
  return {
    el,
    show(message) {
      const value = typeof message === 'string' && message !== '' ? message : null;
      if (value !== null && text.textContent !== value) text.textContent = value;
      el.hidden = value === null || value === dismissed;
      if (value === null) dismissed = null;
    },
  };
}
