// The add-podcast box's directory panel: Popular for an empty box, results as a name is typed
// (asked 300 ms after the last key; a newer question aborts the older one, and an answer to
// anything but the newest question is dropped, so a slow answer never overwrites a newer one),
// one Subscribe button per result, and the directory's own message when it cannot be searched.
// It opens when the box is first used (so merely opening the library asks no directory anything)
// and closes with its Close button or Escape. Results are built with textContent only: a
// directory's titles are data, never markup.

import { h, artwork } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { postJSON } from '../core/api.js';
import { library } from '../core/library.js';
import { plural } from '../core/format.js';
import { searchDirectory, popularPodcasts, looksLikeFeedURL, directorySettings } from '../core/directory.js';
import { buildDirectorySettings } from './directory-settings.js';

const DEBOUNCE_MS = 300;
/** Popular rows shown before "Show all": the library stays in reach below them. */
const POPULAR_SHOWN = 5;
const GENRES_SHOWN = 3;
const rowResults = new WeakMap(); // row → the result it shows
const rowActions = new WeakMap(); // row → subscribes to it

/** Wires `panel` (an empty `section.directory`) to the search box `input`; returns
 *  `{open, close, update({now}), destroy}`. */
export function wireDirectory(panel, input) {
  const title = h('h2', { class: 'section-title directory-title', id: 'directory-title' }, 'Popular');
  const closeButton = h('button', { type: 'button', class: 'icon-button directory-close', 'aria-label': 'Close the directory' }, icon('close'));
  const status = h('p', { class: 'directory-status', role: 'status' });
  const list = h('ol', { class: 'directory-list', 'aria-labelledby': 'directory-title' });
  const more = h('button', { type: 'button', class: 'button button-small directory-more', hidden: true });
  const settings = buildDirectorySettings();
  panel.replaceChildren(h('div', { class: 'directory-head' }, title, closeButton), status, list, more, settings.el);

  let isOpen = false;
  let timer = null;
  let sequence = 0;          // every question asked; only the newest one's answer is shown
  let controller = null;     // aborts the question in flight
  let shown = null;          // { kind: 'popular'|'search'|'url', term } on screen or being asked
  let popularCache = null;   // the Popular list, kept while the page lives (the settings reset it)
  const subscribedHere = new Map(); // feed URL → podcast id, for feeds subscribed from these rows

  const say = (text, kind = '') => {
    status.textContent = text;
    status.className = `directory-status${kind ? ` is-${kind}` : ''}`;
  };

  const cancel = () => {
    clearTimeout(timer);
    timer = null;
    controller?.abort();
    controller = null;
    list.removeAttribute('aria-busy');
  };

  /** Asks the directory (`kind` popular or search) and shows the answer if it is still wanted. */
  const ask = async (kind, term) => {
    cancel();
    const asked = ++sequence;
    controller = new AbortController();
    const { signal } = controller;
    shown = { kind, term };
    title.textContent = kind === 'popular' ? 'Popular' : `Results for “${term}”`;
    list.setAttribute('aria-busy', 'true');
    if (kind === 'popular' && popularCache) {
      show(popularCache, kind, term);
      return;
    }
    say(kind === 'popular' ? 'Loading popular podcasts…' : `Searching for “${term}”…`, 'progress');
    try {
      const results = kind === 'popular' ? await popularPodcasts(signal) : await searchDirectory(term, signal);
      if (asked !== sequence || signal.aborted) return; // a newer question was asked meanwhile
      if (kind === 'popular') popularCache = results;
      show(results, kind, term);
    } catch (error) {
      if (error?.name === 'AbortError' || asked !== sequence) return;
      list.replaceChildren();
      more.hidden = true;
      shown = { kind, term, failed: true }; // asking again (the same term, Enter) tries again
      say(error.message, 'error');
    } finally {
      if (asked === sequence) {
        controller = null;
        list.removeAttribute('aria-busy');
      }
    }
  };

  const show = (results, kind, term) => {
    list.removeAttribute('aria-busy');
    list.replaceChildren(...results.map((result, index) => {
      const row = resultRow(result, subscribe);
      markRow(row, Boolean(result.subscribed) || inLibrary(result), podcastId(result));
      if (kind === 'popular' && index >= POPULAR_SHOWN) row.hidden = true;
      return row;
    }));
    const hiddenRows = kind === 'popular' ? results.length - POPULAR_SHOWN : 0;
    more.hidden = hiddenRows <= 0;
    more.textContent = `Show all ${results.length} popular podcasts`;
    if (results.length === 0) {
      say(kind === 'popular' ? 'The directory has no popular podcasts to show right now.' : `No podcasts found for “${term}”.`);
    } else {
      say(kind === 'popular' ? '' : `${plural(results.length, 'podcast')} found`);
    }
  };

  // The library's podcast for a result: by its feed address, or the one subscribing gave (a feed
  // that redirected is stored under its new address).
  const libraryPodcast = (result) => library.podcasts.find((podcast) =>
    podcast.feedUrl === result.feedUrl || podcast.id === subscribedHere.get(result.feedUrl));
  const inLibrary = (result) => libraryPodcast(result) !== undefined;
  const podcastId = (result) => libraryPodcast(result)?.id ?? subscribedHere.get(result.feedUrl);

  /** Subscribes to a row's feed: the button shows progress, then the row is marked Subscribed;
   *  a failure shows the server's message in that row only. */
  async function subscribe(row, result) {
    const button = row.querySelector('.directory-subscribe');
    if (!button || button.getAttribute('aria-busy') === 'true') return;
    const error = row.querySelector('.directory-error');
    error.hidden = true;
    error.textContent = '';
    button.setAttribute('aria-busy', 'true');
    button.setAttribute('aria-disabled', 'true');
    button.querySelector('.button-label').textContent = 'Subscribing…';
    try {
      const { podcast } = await postJSON('/api/subscriptions', { url: result.feedUrl });
      subscribedHere.set(result.feedUrl, podcast?.id);
      const hadFocus = row.contains(document.activeElement);
      markRow(row, true, podcast?.id);
      if (hadFocus) row.querySelector('.directory-subscribed').focus(); // read out: "Subscribed"
      await library.load().catch(() => {});
    } catch (failure) {
      button.removeAttribute('aria-busy');
      button.removeAttribute('aria-disabled');
      button.querySelector('.button-label').textContent = 'Subscribe';
      error.textContent = failure.message;
      error.hidden = false;
    }
  }

  /** Decides what the panel shows for what is typed now: Popular, results, or nothing (a URL). */
  const update = ({ now = false } = {}) => {
    if (!isOpen) return;
    const term = input.value.trim();
    if (term === '') {
      if (shown?.kind !== 'popular' || shown.failed || now) ask('popular', '');
      return;
    }
    if (looksLikeFeedURL(term)) {
      cancel();
      ++sequence; // whatever was asked before is no longer wanted
      shown = { kind: 'url', term };
      title.textContent = 'Feed URL';
      list.replaceChildren();
      more.hidden = true;
      say('Press Enter or Add to subscribe to this feed.');
      return;
    }
    if (shown?.kind === 'search' && shown.term === term && !shown.failed && !now) return;
    clearTimeout(timer);
    if (now) ask('search', term);
    else timer = setTimeout(() => ask('search', term), DEBOUNCE_MS);
  };

  const open = () => {
    if (isOpen) return;
    isOpen = true;
    panel.hidden = false;
    shown = null;
    directorySettings.load().catch(() => {});
    update({ now: true });
  };

  let quietFocus = false; // the close button hands focus back to the box without reopening
  const close = () => {
    cancel();
    ++sequence;
    isOpen = false;
    panel.hidden = true;
    if (panel.contains(document.activeElement) || document.activeElement === input) {
      quietFocus = true;
      input.focus();
      quietFocus = false;
    }
  };

  closeButton.addEventListener('click', close);
  more.addEventListener('click', () => {
    const revealed = [...list.children].filter((row) => row.hidden);
    for (const row of revealed) row.hidden = false;
    more.hidden = true;
    revealed[0]?.querySelector('button, a')?.focus();
  });
  // Escape closes the panel from anywhere in it, and from the box once it is empty (with text,
  // a search box's Escape first clears it).
  const onKey = (event) => {
    if (event.key !== 'Escape' || !isOpen || event.defaultPrevented) return;
    if (event.target === input && input.value !== '') return;
    if (event.target !== input && !panel.contains(event.target)) return;
    event.preventDefault();
    close();
  };
  panel.parentElement.addEventListener('keydown', onKey);

  // Subscribed or unsubscribed elsewhere (another client, the URL form, the podcast page): the
  // marks follow the library.
  // A feed subscribed here counts as subscribed until the library has been seen holding it (a
  // list fetched before the subscription was stored must not take the mark away again).
  const seenInLibrary = new Set();
  const stopLibrary = library.subscribe(() => {
    for (const row of list.children) {
      const result = rowResults.get(row);
      if (!result) continue;
      const held = inLibrary(result);
      if (held) seenInLibrary.add(result.feedUrl);
      const waiting = subscribedHere.has(result.feedUrl) && !seenInLibrary.has(result.feedUrl);
      markRow(row, held || waiting, podcastId(result));
    }
  });
  // Another directory, or another key: Popular and the results come from it now.
  let settingsSeen = directorySettings.value;
  const stopSettings = directorySettings.subscribe((value, { changed, saved }) => {
    const before = settingsSeen;
    settingsSeen = value;
    // The first load tells what was used already (the server's default): nothing to ask again.
    if (!changed || (before === null && !saved)) return;
    popularCache = null;
    if (isOpen && shown && shown.kind !== 'url') update({ now: true });
  });

  return {
    open() { if (!quietFocus) open(); },
    close,
    update,
    destroy() {
      cancel();
      ++sequence;
      stopLibrary();
      stopSettings();
      settings.destroy();
      panel.parentElement?.removeEventListener('keydown', onKey);
    },
  };
}

/** One result: artwork, title, author, episode count, genres, and its action. */
function resultRow(result, subscribe) {
  const name = result.title || 'Untitled podcast';
  const facts = [];
  if (Number.isInteger(result.episodeCount) && result.episodeCount > 0) {
    facts.push(h('span', { class: 'directory-count' }, plural(result.episodeCount, 'episode')));
  }
  const genres = (Array.isArray(result.genres) ? result.genres : []).filter((g) => typeof g === 'string' && g !== '');
  const row = h('li', { class: 'directory-result', dataset: { feedUrl: result.feedUrl } },
    h('span', { class: 'art-wrap' }, artwork(result.artwork, 'art', 56)),
    h('div', { class: 'directory-body' },
      h('span', { class: 'directory-name' }, name),
      h('p', { class: 'directory-meta' },
        h('span', { class: 'directory-author' }, result.author ?? ''),
        h('span', { class: 'directory-facts' }, facts)),
      genres.length ? h('p', { class: 'directory-genres' }, genres.slice(0, GENRES_SHOWN).join(' · ')) : null,
      h('p', { class: 'directory-error', role: 'alert', hidden: true })),
    h('div', { class: 'directory-actions' }));
  rowResults.set(row, result);
  rowActions.set(row, () => subscribe(row, result));
  return row;
}

/** Shows `row` subscribed (the mark, its title a link to podcast `podcastId` when known) or not
 *  (the button); changes only what differs, so focus stays where it is. */
function markRow(row, subscribed, podcastId) {
  const result = rowResults.get(row);
  const name = result.title || 'Untitled podcast';
  const id = subscribed ? podcastId : null;
  const current = row.querySelector('.directory-name');
  if (id && current.getAttribute('href') !== `/podcast/${id}`) {
    current.replaceWith(h('a', { class: 'directory-name', href: `/podcast/${id}` }, name));
  } else if (!id && current.tagName === 'A') {
    current.replaceWith(h('span', { class: 'directory-name' }, name));
  }
  const actions = row.querySelector('.directory-actions');
  if (subscribed === row.classList.contains('is-subscribed') && actions.firstChild) return;
  row.classList.toggle('is-subscribed', subscribed);
  if (subscribed) {
    actions.replaceChildren(h('span', { class: 'directory-subscribed', tabindex: '-1' }, icon('check'), 'Subscribed'));
    row.querySelector('.directory-error').hidden = true;
  } else {
    const button = h('button', {
      type: 'button',
      class: 'button button-small directory-subscribe',
      'aria-label': `Subscribe to ${name}`,
    }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), icon('plus'), h('span', { class: 'button-label' }, 'Subscribe'));
    button.addEventListener('click', () => rowActions.get(row)());
    actions.replaceChildren(button);
  }
}
