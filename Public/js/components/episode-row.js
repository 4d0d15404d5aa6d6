// One episode row, the same in every list (and the same markup as the first paint
// in Templates/index.mustache): artwork with the now-playing bars, title linking to
// the episode page, a "New" mark while it is in the Inbox, podcast · date · duration, a thin
// progress bar when the episode is part played, a play button, the download button (a ring
// while it downloads) and the More menu.

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { dateText, dateISO, durationText, clock } from '../core/format.js';
import { setMarkItem } from './row-menu.js';
import { downloadButton } from './download-button.js';

/** A `<li class="episode">` for an API Episode. */
export function episodeRow(episode) {
  const duration = durationText(episode.duration);
  const date = dateText(episode.published);
  const facts = [];
  if (date) facts.push(h('time', { datetime: dateISO(episode.published) }, date));
  if (duration) facts.push(h('span', { class: 'episode-duration' }, duration));
  if (episode.played) facts.push(h('span', { class: 'played-mark' }, 'Played'));
  return h('li', { class: episode.played ? 'episode is-played' : 'episode', dataset: { episodeId: episode.id } },
    h('span', { class: 'art-wrap' }, artwork(episode.artwork), equalizer()),
    h('div', { class: 'episode-body' },
      h('a', { class: 'episode-title', href: `/episode/${episode.id}` }, episode.title || 'Untitled episode'),
      h('p', { class: 'episode-meta' },
        episode.inbox ? h('span', { class: 'new-mark' }, 'New') : null, // in the Inbox
        h('span', { class: 'episode-podcast' }, episode.podcast ?? ''),
        h('span', { class: 'episode-facts' }, facts)),
      progressBar(episode)),
    h('div', { class: 'episode-actions' }, playButton(episode), downloadButton(episode), moreButton(episode)));
}

/** A thin bar under the meta of an episode started but not finished (position > 0, not played);
 *  null otherwise. */
export function progressBar(episode) {
  const position = Number(episode.position);
  const duration = Number(episode.duration);
  if (episode.played || !(position > 0) || !(duration > 0)) return null;
  const fraction = Math.min(position / duration, 1);
  const fill = h('span', { class: 'episode-progress-fill' });
  fill.style.width = `${(fraction * 100).toFixed(2)}%`; // CSSOM: the CSP allows no style attributes
  return h('span', {
    class: 'episode-progress',
    role: 'progressbar',
    'aria-label': 'Listened',
    'aria-valuemin': '0',
    'aria-valuemax': String(Math.round(duration)),
    'aria-valuenow': String(Math.round(Math.min(position, duration))),
    'aria-valuetext': `${clock(position)} of ${clock(duration)}`,
  }, fill);
}

/** Shows episode `id` as played or unplayed wherever it is on the page (rows, the episode page,
 *  played toggles) until the next refetch redraws it. Played resets the position: no progress. */
export function showPlayed(id, played) {
  for (const el of document.querySelectorAll(`.episode[data-episode-id="${id}"], .episode-page[data-episode-id="${id}"]`)) {
    if (el.classList.contains('episode')) el.classList.toggle('is-played', played);
    const facts = el.querySelector('.episode-facts');
    const mark = facts?.querySelector('.played-mark');
    if (played && facts && !mark) facts.append(h('span', { class: 'played-mark' }, 'Played'));
    if (!played) mark?.remove();
    if (played) el.querySelector('.episode-progress')?.remove();
  }
  for (const button of document.querySelectorAll(`.mark-played[data-episode-id="${id}"]`)) setMarkItem(button, played);
}

/** The row's overflow button: opens the Play next / Add to queue / Mark as played menu. */
export function moreButton(episode) {
  return h('button', {
    type: 'button',
    class: 'more-button',
    dataset: { action: 'queue-menu', episodeId: episode.id, title: episode.title ?? '' },
    'aria-label': `More for ${episode.title ?? 'episode'}`,
    'aria-haspopup': 'menu',
    'aria-expanded': 'false',
  }, icon('more'));
}

/** An `<ol class="episode-list">`, or an empty-state paragraph. */
export function episodeList(episodes, emptyText = 'No episodes yet.') {
  if (!episodes.length) return h('p', { class: 'empty' }, emptyText);
  return h('ol', { class: 'episode-list' }, episodes.map(episodeRow));
}

/** The round play button used by rows and the episode page. */
export function playButton(episode, className = 'play-button') {
  return h('button', {
    type: 'button',
    class: className,
    dataset: { action: 'play', episodeId: episode.id, title: episode.title ?? '' },
    'aria-label': `Play ${episode.title ?? 'episode'}`,
  }, icon('play'));
}

/** The animated "now playing" bars (shown only on the current row). */
export function equalizer() {
  return h('span', { class: 'eq', 'aria-hidden': 'true' }, h('span'), h('span'), h('span'));
}
