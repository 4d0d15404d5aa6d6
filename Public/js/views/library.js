// Library view `/`: the add-podcast box (directory search or a feed URL) with OPML import/export, the podcasts (with Refresh all
// and a badge on each feed in trouble), and the episodes (newest first unless filtered or sorted
// otherwise, a page at a time).
// On the first load it adopts the server-rendered page (same markup) instead of rebuilding it,
// so nothing flickers and nothing typed is lost.

import { h, artwork } from '../core/dom.js';
import { library } from '../core/library.js';
import { episodeBrowser } from '../components/episode-browser.js';
import { buildFeedForm, wireFeedForm } from '../components/feed-form.js';
import { buildOpml, wireOpml } from '../components/opml.js';
import { buildRefreshBar, wireRefreshBar } from '../components/refresh-bar.js';
import { tileBadge } from '../components/feed-status.js';
import { markNowPlaying } from '../components/now-playing.js';

export const libraryView = {
  async mount(root) {
    const adopting = root.dataset.ssr === 'library';
    if (!adopting) root.replaceChildren(...skeleton());
    const stopFeedForm = wireFeedForm(root.querySelector('form.add-feed'));
    wireOpml(root.querySelector('.opml'));
    const stopRefreshBar = wireRefreshBar(root.querySelector('.podcasts-section'));
    const podcastsBox = root.querySelector('.podcasts-box');
    const episodesBox = root.querySelector('.episodes-box');

    // The episodes: filtered, sorted and paged (the first paint's rows stay until the first page is in).
    const firstPaint = [...episodesBox.childNodes];
    const episodes = episodeBrowser({
      view: 'library',
      allEmpty: 'No episodes yet. Add a podcast above.',
      label: 'Episodes',
      onFirstPage: () => { for (const node of firstPaint) node.remove(); },
    });
    episodesBox.before(episodes.controls);
    episodesBox.append(episodes.list);
    await episodes.start(); // before the router restores the scroll position (Back)

    const renderLists = () => {
      podcastsBox.replaceChildren(podcastGrid(library.podcasts));
      markNowPlaying(root);
    };
    const stopLibrary = library.subscribe(renderLists); // the episodes refetch themselves
    if (library.loaded) renderLists();
    else if (adopting) markNowPlaying(root); // keep the first paint until the lists arrive
    else library.load().catch(() => {});
    return {
      title: null,
      destroy() {
        stopLibrary();
        episodes.destroy();
        stopRefreshBar();
        stopFeedForm();
      },
    };
  },
};

function skeleton() {
  const form = buildFeedForm();
  form.append(buildOpml());
  const [refreshButton, refreshStatus] = buildRefreshBar();
  return [
    h('h1', { class: 'view-title', tabindex: '-1' }, 'Library'),
    form,
    h('section', { class: 'section podcasts-section', 'aria-labelledby': 'podcasts-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'podcasts-title', class: 'section-title' }, 'Podcasts'),
        refreshButton),
      refreshStatus,
      h('div', { class: 'podcasts-box' })),
    h('section', { class: 'section', 'aria-labelledby': 'episodes-title' },
      h('h2', { id: 'episodes-title', class: 'section-title' }, 'Episodes'),
      h('div', { class: 'episodes-box' })),
  ];
}

/** Podcast tiles, or an empty-state line. */
export function podcastGrid(podcasts) {
  if (!podcasts.length) return h('p', { class: 'empty' }, 'No podcasts yet. Search for one above, or add it by its feed URL.');
  return h('ul', { class: 'podcast-grid' }, podcasts.map((podcast) =>
    h('li', {},
      h('a', { class: 'podcast-tile', href: `/podcast/${podcast.id}`, dataset: { status: podcast.status ?? 'ok' } },
        h('span', { class: 'tile-art-wrap' }, artwork(podcast.artwork, 'tile-art', 160), tileBadge(podcast)),
        h('span', { class: 'podcast-tile-title' }, podcast.title || 'Untitled podcast'),
        h('span', { class: 'podcast-tile-meta' }, podcast.author ?? '')))));
}
