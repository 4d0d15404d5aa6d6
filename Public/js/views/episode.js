// Episode page `/episode/{id}`: artwork, title, podcast, date, duration, a play
// button and the show notes (plain text from the server, line breaks kept by CSS).

import { h, artwork } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { dateText, dateISO, durationText } from '../core/format.js';
import { playButton, equalizer } from '../components/episode-row.js';
import { markNowPlaying } from '../components/now-playing.js';
import { problem } from './problem.js';

export const episodeView = {
  async mount(root, [id], isCurrent) {
    let episode;
    try {
      ({ episode } = await getJSON(`/api/episodes/${id}`));
    } catch (error) {
      if (isCurrent()) root.replaceChildren(...problem(error.status === 404 ? 'Episode not found' : 'Could not load this episode', error.message));
      return { title: 'Not found' };
    }
    if (!isCurrent()) return null;
    root.replaceChildren(page(episode));
    markNowPlaying(root);
    return { title: episode.title };
  },
};

function page(episode) {
  const date = dateText(episode.published);
  const duration = durationText(episode.duration);
  const button = playButton(episode, 'button button-primary episode-play');
  button.append(h('span', { class: 'button-label' }, 'Play'));
  return h('article', { class: 'episode-page', dataset: { episodeId: episode.id } },
    h('header', { class: 'episode-page-header' },
      h('span', { class: 'art-wrap episode-page-art' }, artwork(episode.artwork, 'art', 320), equalizer()),
      h('div', { class: 'episode-page-text' },
        h('a', { class: 'episode-page-podcast', href: `/podcast/${episode.podcastId}` }, episode.podcast ?? ''),
        h('h1', { class: 'view-title', tabindex: '-1' }, episode.title || 'Untitled episode'),
        h('p', { class: 'episode-meta' },
          h('span', { class: 'episode-facts' },
            date ? h('time', { datetime: dateISO(episode.published) }, date) : null,
            duration ? h('span', { class: 'episode-duration' }, duration) : null,
            episode.played ? h('span', { class: 'played-mark' }, 'Played') : null)),
        button)),
    h('section', { class: 'show-notes', 'aria-label': 'Show notes' },
      episode.summary ? h('p', { class: 'show-notes-text' }, episode.summary) : h('p', { class: 'empty' }, 'No show notes.')));
}
