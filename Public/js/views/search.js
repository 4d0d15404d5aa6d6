// Library search results `/search?q=…` (typed into the header's field, components/header-search.js):
// the podcasts and the episodes whose words match (GET /api/search), each with the server's
// snippet, its matched words in <mark>. An episode found in its transcript says when the words
// are said and links to its page at that moment (`/episode/{id}?t=…`, the transcript scrolled
// there). Each keystroke's search replaces the one before: the earlier request is aborted, and
// an answer that comes back after a newer search started is dropped (the router's isCurrent).

import { h, artwork } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { clock, dateText, dateISO, plural } from '../core/format.js';
import { markedText } from '../components/snippet.js';
import { equalizer, playButton } from '../components/episode-row.js';
import { markNowPlaying } from '../components/now-playing.js';
import { announceSearch, currentQuery, searchFieldFocused } from '../components/header-search.js';
import { listControls } from '../components/list-controls.js';
import { FILTERS, SORTS, emptyText } from '../core/episode-query.js';

// Results come best match first; the other sorts reorder the episodes found (the server ranks,
// the page sorts what it was sent). The filter goes to the server, which finds only episodes in
// that state. Both live in the URL (`&filter=played&sort=oldest`), so Back and reload keep them.
const SEARCH_SORTS = [{ value: 'relevance', label: 'Best match' }, ...SORTS];
function cleanSearchChoice(raw) {
  return {
    filter: FILTERS.some((f) => f.value === raw?.filter) ? raw.filter : '',
    sort: SEARCH_SORTS.some((s) => s.value === raw?.sort) ? raw.sort : 'relevance',
  };
}
function readSearchChoice() {
  const params = new URLSearchParams(location.search);
  return cleanSearchChoice({ filter: params.get('filter') ?? '', sort: params.get('sort') ?? 'relevance' });
}
function keepSearchChoice({ filter, sort }) {
  const url = new URL(location.href);
  url.searchParams.delete('filter');
  url.searchParams.delete('sort');
  if (filter) url.searchParams.set('filter', filter);
  if (sort !== 'relevance') url.searchParams.set('sort', sort);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}
const ORDER = {
  newest: (a, b) => (b.episode.published ?? -Infinity) - (a.episode.published ?? -Infinity),
  oldest: (a, b) => (a.episode.published ?? Infinity) - (b.episode.published ?? Infinity),
  shortest: (a, b) => ((a.episode.duration || Infinity) - (b.episode.duration || Infinity)),
  longest: (a, b) => (b.episode.duration || 0) - (a.episode.duration || 0),
};

const LIMIT = 30;
let inflight = null; // the AbortController of the search under way

export const searchView = {
  async mount(root, _params, isCurrent) {
    inflight?.abort();
    const q = currentQuery().replace(/\s+/g, ' ').trim();
    if (!q) {
      root.replaceChildren(page('Search your library', null,
        h('p', { class: 'search-hint' },
          'Type in the search box to find podcasts by title or author, and episodes by their title, ',
          'their show notes or what is said in them (a transcript joins the search once its episode has been opened).')));
      announceSearch('');
      return { title: 'Search' };
    }
    const controller = new AbortController();
    inflight = controller;
    const choice = readSearchChoice();
    const filterArg = choice.filter ? `&filter=${encodeURIComponent(choice.filter)}` : '';
    let answer;
    try {
      answer = await getJSON(`/api/search?q=${encodeURIComponent(q)}&limit=${LIMIT}${filterArg}`, { signal: controller.signal });
    } catch (error) {
      if (error?.name === 'AbortError' || !isCurrent()) return null;
      root.replaceChildren(page(`Results for “${q}”`, null,
        h('p', { class: 'search-problem', role: 'status' }, sentence(error.message))));
      announceSearch('The search failed.');
      return { title: `Search: ${q}` };
    } finally {
      if (inflight === controller) inflight = null;
    }
    if (!isCurrent()) return null;
    const podcasts = Array.isArray(answer?.podcasts) ? answer.podcasts.filter((hit) => hit?.podcast) : [];
    const episodes = Array.isArray(answer?.episodes) ? answer.episodes.filter((hit) => hit?.episode) : [];
    if (ORDER[choice.sort]) episodes.sort(ORDER[choice.sort]); // stable: equal ones keep the server's order
    const controls = listControls(choice, (next) => {
      keepSearchChoice(next);
      searchView.mount(root, _params, isCurrent); // the filter asks the server again; a sort could reorder, this is simpler
    }, { label: 'found episodes', sorts: SEARCH_SORTS, clean: cleanSearchChoice });
    const found = podcasts.length + episodes.length;
    const summary = found === 0 ? `Nothing in your library matches “${q}”.`
      : [podcasts.length ? plural(podcasts.length, 'podcast') : '', episodes.length ? plural(episodes.length, 'episode') : '']
        .filter(Boolean).join(' and ') + ' found.';
    root.replaceChildren(page(`Results for “${q}”`, found ? summary : null,
      found === 0 && !choice.filter ? h('p', { class: 'empty search-empty' }, summary) : null,
      found > 0 || choice.filter ? h('div', { class: 'search-controls' }, controls.el) : null,
      choice.filter && episodes.length === 0
        ? h('p', { class: 'empty search-empty' }, emptyText(choice.filter).replace(/\.$/, '') + ` match “${q}”.`) : null,
      podcasts.length ? h('section', { class: 'section search-section', 'aria-labelledby': 'search-podcasts-title' },
        h('h2', { id: 'search-podcasts-title', class: 'section-title' }, 'Podcasts'),
        h('ul', { class: 'search-podcasts' }, podcasts.map(podcastHit))) : null,
      episodes.length ? h('section', { class: 'section search-section', 'aria-labelledby': 'search-episodes-title' },
        h('h2', { id: 'search-episodes-title', class: 'section-title' }, 'Episodes'),
        h('ol', { class: 'episode-list search-episodes' }, episodes.map(episodeHit))) : null));
    markNowPlaying(root);
    announceSearch(summary);
    return {
      title: `Search: ${q}`,
      destroy() { if (inflight === controller) controller.abort(); },
    };
  },
};

/** The page: a heading (focusable for the router's announcement unless the field is being typed
 *  in: the focus must stay there), a line of counts, the sections. */
function page(title, summary, ...sections) {
  return h('div', { class: 'search-results' },
    h('h1', { class: 'view-title', tabindex: searchFieldFocused() ? null : '-1' }, title),
    summary ? h('p', { class: 'search-summary' }, summary) : null,
    sections);
}

/** A podcast found by its title or author: the snippet highlights whichever it was. */
function podcastHit({ podcast, snippet }) {
  const title = podcast.title || 'Untitled podcast';
  const inTitle = snippet?.text === podcast.title;
  const inAuthor = !inTitle && snippet?.text && snippet.text === podcast.author;
  return h('li', {},
    h('a', { class: 'search-podcast', href: `/podcast/${podcast.id}` },
      artwork(podcast.artwork, 'art search-podcast-art', 56),
      h('span', { class: 'search-podcast-text' },
        h('span', { class: 'search-podcast-title' }, inTitle ? markedText(snippet, title) : title),
        podcast.author ? h('span', { class: 'search-podcast-author' }, inAuthor ? markedText(snippet) : podcast.author) : null,
        !inTitle && !inAuthor && snippet?.text ? h('span', { class: 'search-snippet' }, markedText(snippet)) : null,
        Number.isInteger(podcast.episodeCount) ? h('span', { class: 'search-podcast-count' }, plural(podcast.episodeCount, 'episode')) : null)));
}

/** An episode found by its title, show notes or transcript. A transcript hit links to the moment
 *  the words are said. */
function episodeHit(hit) {
  const { episode, snippet } = hit;
  const title = episode.title || 'Untitled episode';
  const where = hit.in === 'title' || hit.in === 'notes' || hit.in === 'transcript' ? hit.in : 'notes';
  const at = where === 'transcript' && Number.isFinite(Number(hit.at)) && hit.at !== null ? Math.max(0, Number(hit.at)) : null;
  const href = at !== null ? `/episode/${episode.id}?t=${Number(at.toFixed(3))}` : `/episode/${episode.id}`;
  const date = dateText(episode.published);
  const found = where === 'transcript'
    ? (at !== null ? `Said at ${clock(at)}` : 'In the transcript')
    : where === 'notes' ? 'In the show notes' : null;
  return h('li', { class: 'episode search-hit', dataset: { episodeId: episode.id, in: where } },
    h('span', { class: 'art-wrap' }, artwork(episode.artwork), equalizer()),
    h('div', { class: 'episode-body' },
      h('a', { class: 'episode-title', href }, where === 'title' ? markedText(snippet, title) : title),
      h('p', { class: 'episode-meta' },
        h('span', { class: 'episode-podcast' }, episode.podcast ?? ''),
        h('span', { class: 'episode-facts' }, date ? h('time', { datetime: dateISO(episode.published) }, date) : null)),
      where !== 'title' && snippet?.text
        ? h('p', { class: 'search-snippet' },
          found ? h('span', { class: 'search-where' }, found) : null,
          h('span', { class: where === 'transcript' ? 'search-quote is-said' : 'search-quote' }, markedText(snippet)))
        : null),
    h('div', { class: 'episode-actions' }, playButton(episode)));
}

/** The server's message as a sentence ("the transcript…" → "The transcript…."). */
function sentence(message) {
  const text = String(message || 'The search failed.');
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
