// Episodes the server could not play since it started (`state.failures`: id → message) carry a
// "Couldn't play" mark in every list, its title saying why, until one plays again.

import { h } from '../core/dom.js';
import { player } from '../core/player-state.js';

/** Adds or removes the mark on every episode row under `root`. */
export function markFailures(root) {
  const failures = player.state?.failures && typeof player.state.failures === 'object' ? player.state.failures : {};
  for (const row of root.querySelectorAll('.episode[data-episode-id], .episode-page[data-episode-id]')) {
    const message = failures[row.dataset.episodeId];
    const failed = typeof message === 'string';
    row.classList.toggle('has-failed', failed);
    const facts = row.querySelector('.episode-facts');
    let mark = facts?.querySelector('.failed-mark');
    if (failed && facts) {
      if (!mark) {
        mark = h('span', { class: 'failed-mark' }, 'Couldn’t play');
        facts.prepend(mark);
      }
      mark.title = message;
    } else {
      mark?.remove();
    }
  }
}
