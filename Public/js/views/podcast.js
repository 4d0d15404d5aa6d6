// Podcast view `/podcast/{id}`: a header and the podcast's episodes.

import { h, artwork } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { library } from '../core/library.js';
import { episodeList } from '../components/episode-row.js';
import { markNowPlaying } from '../components/now-playing.js';
import { problem } from './problem.js';

export const podcastView = {
  async mount(root, [id], isCurrent) {
    let data;
    try {
      data = await getJSON(`/api/podcasts/${id}/episodes`);
    } catch (error) {
      if (isCurrent()) root.replaceChildren(...problem(error.status === 404 ? 'Podcast not found' : 'Could not load this podcast', error.message));
      return { title: 'Not found' };
    }
    if (!isCurrent()) return null;
    const list = h('div', { class: 'episodes-box in-podcast' });
    const render = (episodes) => {
      list.replaceChildren(episodeList(episodes));
      markNowPlaying(root);
    };
    root.replaceChildren(header(data.podcast), h('section', { class: 'section', 'aria-label': 'Episodes' }, list));
    render(data.episodes ?? []);
    // The server announced new episodes: refetch this podcast's list.
    const unsubscribe = library.subscribe(() => {
      getJSON(`/api/podcasts/${id}/episodes`).then((fresh) => render(fresh.episodes ?? [])).catch(() => {});
    });
    return { title: data.podcast.title, destroy: unsubscribe };
  },
};

function header(podcast) {
  const count = podcast.episodeCount ?? 0;
  return h('header', { class: 'podcast-header' },
    artwork(podcast.artwork, 'podcast-header-art', 320),
    h('div', { class: 'podcast-header-text' },
      h('h1', { class: 'view-title', tabindex: '-1' }, podcast.title || 'Untitled podcast'),
      podcast.author ? h('p', { class: 'podcast-author' }, podcast.author) : null,
      h('p', { class: 'podcast-count' }, `${count} episode${count === 1 ? '' : 's'}`),
      podcast.summary ? h('p', { class: 'podcast-summary' }, podcast.summary) : null));
}
