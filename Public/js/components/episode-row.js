// One episode row, the same in every list (and the same markup as the first paint
// in Templates/index.mustache): artwork with the now-playing bars, title linking to
// the episode page, podcast · date · duration, and a play button.

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { dateText, dateISO, durationText } from '../core/format.js';

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
        h('span', { class: 'episode-podcast' }, episode.podcast ?? ''),
        h('span', { class: 'episode-facts' }, facts))),
    h('div', { class: 'episode-actions' }, playButton(episode), moreButton(episode)));
}

/** The row's overflow button: opens the Play next / Add to queue menu. */
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
