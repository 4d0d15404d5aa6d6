// The mini-player bar: fixed at the bottom, the same DOM node across every view
// (it lives in the template, outside the view container). Tapping it — anywhere
// but its play button — opens the full player. Beside the time it shows the speed (when not
// 1×) and the sleep timer's countdown (when one is set). Under the title: the chapter playing
// when the episode has chapters (what a listener looks for in a long episode), else the podcast.

import { icon } from '../core/icons.js';
import { safeUrl } from '../core/dom.js';
import { artworkURL } from '../core/artwork-url.js';
import { clock } from '../core/format.js';
import { player } from '../core/player-state.js';
import { router } from '../core/router.js';
import { speedText } from './speed-menu.js';
import { sleepText } from './sleep-menu.js';
import { playingWhere } from './rooms-panel.js';

/** Wires the template's `#mini-player` to the player state. */
export function initMiniPlayer(bar) {
  if (!bar) return;
  const parts = {
    art: bar.querySelector('.mini-art'),
    title: bar.querySelector('.mini-title'),
    podcast: bar.querySelector('.mini-podcast'),
    time: bar.querySelector('.mini-time'),
    fill: bar.querySelector('.mini-progress-fill'),
    toggle: bar.querySelector('.mini-toggle'),
    speed: bar.querySelector('.mini-speed'),
    sleep: bar.querySelector('.mini-sleep'),
    sleepTime: bar.querySelector('.mini-sleep-time'),
  };
  let showing = null; // 'play' | 'pause'
  let artSrc = null;

  bar.addEventListener('click', (event) => {
    if (event.target.closest('button')) return;
    event.preventDefault();
    router.navigate('/player');
  });

  const render = (state, kind) => {
    const episode = player.episode;
    bar.hidden = !episode;
    document.body.classList.toggle('has-mini', Boolean(episode));
    if (!episode) return;
    if (kind !== 'tick') {
      parts.title.textContent = episode.title ?? '';
      const chapter = currentChapter(state);
      // Where it plays, when that is the rooms (issue 17): "Podcast · in Kitchen, Hall".
      const where = playingWhere(state);
      parts.podcast.textContent = [chapter ?? episode.podcast ?? '', where].filter(Boolean).join(' · ');
      parts.podcast.classList.toggle('is-chapter', chapter != null);
      const src = safeUrl(artworkURL(episode.artwork, 48));
      if (src !== artSrc) {
        artSrc = src;
        if (src) parts.art.src = src;
        else parts.art.removeAttribute('src');
        parts.art.hidden = !src;
      }
      const next = player.paused ? 'play' : 'pause';
      if (next !== showing) {
        showing = next;
        parts.toggle.replaceChildren(icon(next));
        parts.toggle.setAttribute('aria-label', next === 'play' ? 'Play' : 'Pause');
      }
      const waiting = Boolean(state?.buffering);
      parts.toggle.classList.toggle('is-buffering', waiting); // the full player's ring, smaller
      parts.toggle.setAttribute('aria-busy', String(waiting));
      const rate = Number(state?.rate) || 1;
      if (parts.speed) {
        parts.speed.hidden = rate === 1;
        parts.speed.textContent = speedText(rate);
      }
    }
    if (parts.sleep) {
      parts.sleep.hidden = !state?.sleep;
      const text = sleepText(state);
      if (parts.sleepTime.textContent !== text) parts.sleepTime.textContent = text;
    }
    const position = player.position();
    const duration = player.duration();
    parts.time.textContent = duration > 0 ? `${clock(position)} / ${clock(duration)}` : clock(position);
    parts.fill.style.transform = `scaleX(${duration > 0 ? Math.min(position / duration, 1) : 0})`;
  };
  player.subscribe(render);
  render(player.state, 'state');
}

/** The title of the chapter playing (`state.chapter` in `state.chapters`), or null. */
function currentChapter(state) {
  const index = state?.chapter;
  const chapters = state?.chapters ?? [];
  if (!Number.isInteger(index) || index < 0 || index >= chapters.length) return null;
  return chapters[index].title || `Chapter ${index + 1}`;
}
