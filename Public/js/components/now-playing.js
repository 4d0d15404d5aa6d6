// Marks what the server is playing wherever it appears: the row highlight with the
// animated bars, and play buttons that become pause buttons.

import { icon } from '../core/icons.js';
import { player } from '../core/player-state.js';
import { markFailures } from './failure-marks.js';

/** Updates every row and play button under `root` to match the player state. */
export function markNowPlaying(root) {
  if (!root) return;
  const id = player.episode?.id ?? null;
  const playing = id !== null && !player.paused;
  for (const row of root.querySelectorAll('.episode[data-episode-id], .episode-page[data-episode-id]')) {
    const current = Number(row.dataset.episodeId) === id;
    row.classList.toggle('is-current', current);
    row.classList.toggle('is-paused', current && !playing);
    if (current) row.setAttribute('aria-current', 'true');
    else row.removeAttribute('aria-current');
  }
  for (const button of root.querySelectorAll('[data-action="play"][data-episode-id]')) {
    const pausable = playing && Number(button.dataset.episodeId) === id;
    if (button.dataset.showing === (pausable ? 'pause' : 'play')) continue;
    button.dataset.showing = pausable ? 'pause' : 'play';
    const title = button.dataset.title || 'episode';
    button.setAttribute('aria-label', `${pausable ? 'Pause' : 'Play'} ${title}`);
    const fresh = icon(pausable ? 'pause' : 'play');
    const old = button.querySelector('svg');
    if (old) old.replaceWith(fresh);
    else button.prepend(fresh);
    const label = button.querySelector('.button-label');
    if (label) label.textContent = pausable ? 'Pause' : 'Play';
  }
  markFailures(root);
}
