// "Listen on this phone" in the full player of a paired phone (issue 16): takes the episode along
// (core/handoff.js); while this phone plays it, a panel with its own play/pause, skips and time,
// and "Play on speakers" to give it back at this phone's position.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { clock } from '../core/format.js';
import { getJSON } from '../core/api.js';
import { player } from '../core/player-state.js';
import { handoff } from '../core/handoff.js';
import { toast } from '../core/toast.js';
import { skipIntervals } from './skip-intervals.js';

let isDevice = null; // whether this browser is a paired device (not the Earshot machine itself)

/** The panel; `el` goes into the player, `update()` after each state, `destroy()` when it leaves. */
export function handoffPanel() {
  const take = h('button', { type: 'button', class: 'button handoff-take', hidden: true,
    on: { click: async () => {
      const episode = player.episode;
      if (!episode) return;
      take.disabled = true;
      try { await handoff.take(episode); } catch (error) { toast(error.message, 'error'); }
      take.disabled = false;
    } } }, icon('phone'), h('span', { class: 'button-label' }, 'Listen on this phone'));
  const toggle = h('button', { type: 'button', class: 'icon-button handoff-toggle', 'aria-label': 'Play on this phone',
    on: { click: () => handoff.toggle() } }, icon('play'));
  const back = h('button', { type: 'button', class: 'icon-button handoff-back', 'aria-label': 'Back',
    on: { click: () => handoff.skip(-skipIntervals().back) } }, icon('back15', 15));
  const forward = h('button', { type: 'button', class: 'icon-button handoff-forward', 'aria-label': 'Forward',
    on: { click: () => handoff.skip(skipIntervals().forward) } }, icon('forward15', 30));
  const time = h('span', { class: 'handoff-time', 'aria-live': 'off' });
  const give = h('button', { type: 'button', class: 'button button-primary handoff-give',
    on: { click: async () => {
      give.disabled = true;
      try { await handoff.giveBack(); } catch (error) { toast(error.message, 'error'); }
      give.disabled = false;
    } } }, icon('speaker'), h('span', { class: 'button-label' }, 'Play on speakers'));
  const panel = h('div', { class: 'handoff-panel', hidden: true, role: 'group', 'aria-label': 'Playing on this phone' },
    h('p', { class: 'handoff-where' }, icon('phone'), h('span', { class: 'handoff-title' })),
    h('div', { class: 'handoff-controls' }, back, toggle, forward, time),
    give);
  const el = h('div', { class: 'handoff', hidden: true }, take, panel);

  let shownPlaying = null;
  function update() {
    const here = handoff.active;
    panel.hidden = !here;
    // The speakers' own controls step aside while the phone plays (player.css).
    el.closest('.player-body')?.classList.toggle('is-on-phone', here);
    take.hidden = here || !isDevice || !player.episode;
    // Nothing to offer (the Earshot machine itself): no room taken in the player's layout either.
    el.hidden = take.hidden && panel.hidden;
    if (!here) return;
    panel.querySelector('.handoff-title').textContent = 'Playing on this phone';
    const playing = handoff.playing;
    if (playing !== shownPlaying) {
      shownPlaying = playing;
      toggle.replaceChildren(icon(playing ? 'pause' : 'play'));
      toggle.setAttribute('aria-label', playing ? 'Pause on this phone' : 'Play on this phone');
    }
    const duration = Number.isFinite(handoff.audio?.duration) ? handoff.audio.duration : handoff.episode.duration;
    time.textContent = `${clock(handoff.position())}${duration > 0 ? ` / ${clock(duration)}` : ''}`;
  }

  const stops = [handoff.subscribe(update)];
  const ticker = setInterval(() => { if (handoff.active) update(); }, 500);
  if (isDevice === null) {
    getJSON('/api/device').then((who) => { isDevice = who.requester === 'device'; update(); }).catch(() => { isDevice = false; });
  }
  update();
  return { el, update, destroy() { clearInterval(ticker); for (const stop of stops) stop(); } };
}
