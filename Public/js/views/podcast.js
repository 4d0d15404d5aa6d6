// Podcast view `/podcast/{id}`: a header (title, author, episode count, when the feed was last
// refreshed, Refresh and Unsubscribe, the speed its episodes start at, its skips), what went wrong with the
// feed if anything did, what the feed says about the show, and the episodes (filtered, sorted and
// paged: components/episode-browser.js).

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { getJSON, deleteJSON } from '../core/api.js';
import { library } from '../core/library.js';
import { refresh } from '../core/refresh.js';
import { router } from '../core/router.js';
import { toast } from '../core/toast.js';
import { plural } from '../core/format.js';
import { episodeBrowser } from '../components/episode-browser.js';
import { markNowPlaying } from '../components/now-playing.js';
import { confirmDialog } from '../components/confirm.js';
import { feedNotice, refreshedText, warningsNote } from '../components/feed-status.js';
import { podcastFacts } from '../components/facts.js';
import { speedMenu } from '../components/speed-menu.js';
import { podcastSkips } from '../components/podcast-skips.js';
import { player } from '../core/player-state.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { problem } from './problem.js';

const TICK_MS = 30_000; // "Refreshed 2 min ago" stays true

export const podcastView = {
  async mount(root, [id], isCurrent) {
    let data;
    try {
      data = await getJSON(`/api/podcasts/${id}`); // the episodes come a page at a time (below)
    } catch (error) {
      if (isCurrent()) root.replaceChildren(...problem(error.status === 404 ? 'Podcast not found' : 'Could not load this podcast', error.message));
      return { title: 'Not found' };
    }
    if (!isCurrent()) return null;

    let podcast = data.podcast;
    let gone = false; // unsubscribed (here or by another client)
    const count = h('span', { class: 'podcast-count-text' });
    const refreshed = h('span', { class: 'podcast-refreshed' });
    const statusBox = h('div', { class: 'feed-status' });
    const factsBox = h('div', { class: 'facts-box' });
    const list = h('div', { class: 'episodes-box in-podcast' });
    const episodes = episodeBrowser({ view: 'podcast', podcast: Number(id), allEmpty: 'No episodes yet.', label: 'Episodes' });
    list.append(episodes.list);
    const refreshButton = h('button', { type: 'button', class: 'button button-small podcast-refresh' },
      icon('refresh'), h('span', { class: 'button-label' }, 'Refresh'));
    const unsubscribeButton = h('button', { type: 'button', class: 'button button-small button-quiet podcast-unsubscribe' },
      h('span', { class: 'button-label' }, 'Unsubscribe'));

    const renderStatus = () => {
      const n = podcast.episodeCount ?? 0;
      count.textContent = plural(n, 'episode');
      refreshed.textContent = refreshedText(podcast);
      statusBox.replaceChildren(...[feedNotice(podcast), warningsNote(podcast)].filter(Boolean));
      factsBox.replaceChildren(...[podcastFacts(podcast)].filter(Boolean));
    };
    const reload = async () => {
      if (gone) return;
      try {
        const fresh = await getJSON(`/api/podcasts/${id}`);
        podcast = fresh.podcast;
        renderStatus(); // the episodes refetch themselves on `library`
      } catch (error) {
        if (error.status !== 404 || !isCurrent()) return;
        gone = true; // another client unsubscribed it
        root.replaceChildren(...problem('No longer subscribed', `“${podcast.title}” was removed from your library.`));
      }
    };

    // Refresh this feed: busy until the server reports the refresh finished, then show the result.
    let waiting = false;
    const setBusy = (busy) => {
      waiting = busy;
      refreshButton.setAttribute('aria-disabled', String(busy));
      refreshButton.classList.toggle('is-busy', busy);
      refreshButton.querySelector('.button-label').textContent = busy ? 'Refreshing…' : 'Refresh';
    };
    refreshButton.addEventListener('click', async () => {
      if (waiting) return;
      setBusy(true);
      try {
        const status = await refresh.start(podcast.id);
        if (!status?.running) { setBusy(false); await reload(); }
      } catch (error) {
        setBusy(false);
        toast(error.message, 'error');
      }
    });
    const stopWatchingRefresh = refresh.subscribe((status) => {
      if (!waiting || status.running) return;
      setBusy(false);
      reload();
    });

    unsubscribeButton.addEventListener('click', async () => {
      const sure = await confirmDialog({
        title: `Unsubscribe from “${podcast.title || 'this podcast'}”?`,
        text: 'Its episodes leave your library. Where you left off in each is kept, so subscribing again finds it.',
        confirm: 'Unsubscribe',
      });
      if (!sure || gone) return;
      unsubscribeButton.setAttribute('aria-disabled', 'true');
      try {
        await deleteJSON(`/api/podcasts/${podcast.id}`);
        gone = true;
        toast(`Unsubscribed from “${podcast.title}”.`);
        library.load().catch(() => {});
        router.navigate('/', { replace: true });
      } catch (error) {
        unsubscribeButton.removeAttribute('aria-disabled');
        toast(error.message, 'error');
      }
    });

    // The speed this podcast's episodes start at: a server setting, so every client shows it.
    const speed = speedMenu((rate) => socket.send(Cmd.podcastSpeed, { podcast: podcast.id, rate }), {
      label: 'Episodes play at', ariaLabel: 'Speed this podcast\u2019s episodes start at', none: 'Usual speed',
    });
    speed.el.classList.add('podcast-speed');
    // Its skips (intro, outro, chapters by title): server settings too.
    const skips = podcastSkips(podcast.id);
    const showSpeed = (state, kind) => {
      if (kind === 'tick') return;
      const rate = state?.settings?.podcastSpeeds?.[String(podcast.id)];
      speed.update(Number.isFinite(rate) ? rate : null);
      skips.update(state);
    };
    const stopWatchingSpeed = player.subscribe(showSpeed);
    showSpeed(player.state, 'state');

    root.replaceChildren(...[
      h('header', { class: 'podcast-header' },
        artwork(podcast.artwork, 'podcast-header-art', 320),
        h('div', { class: 'podcast-header-text' },
          h('h1', { class: 'view-title', tabindex: '-1' }, podcast.title || 'Untitled podcast'),
          podcast.author ? h('p', { class: 'podcast-author' }, podcast.author) : null,
          h('p', { class: 'podcast-count' }, count, refreshed),
          h('div', { class: 'podcast-actions' }, refreshButton, unsubscribeButton),
          speed.el,
          skips.el)),
      statusBox,
      podcast.summary ? h('p', { class: 'podcast-summary' }, podcast.summary) : null,
      factsBox,
      h('section', { class: 'section', 'aria-labelledby': 'podcast-episodes-title' },
        h('h2', { id: 'podcast-episodes-title', class: 'section-title' }, 'Episodes'),
        episodes.controls,
        list),
    ].filter(Boolean));
    renderStatus();
    await episodes.start(); // before the router restores the scroll position (Back)
    markNowPlaying(root);

    // The server announced changes (new episodes, a refresh's result): refetch.
    const stopWatchingLibrary = library.subscribe(reload);
    const ticker = setInterval(() => { refreshed.textContent = refreshedText(podcast); }, TICK_MS);
    return {
      title: podcast.title,
      destroy() {
        stopWatchingLibrary();
        episodes.destroy();
        stopWatchingRefresh();
        stopWatchingSpeed();
        clearInterval(ticker);
      },
    };
  },
};
