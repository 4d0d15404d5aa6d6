// A long episode list, fetched a page at a time and windowed so the page stays light with
// thousands of episodes.
//
// Paging: the first page comes with `reset()`; the next one when the end of the list comes within
// about a screen of the viewport (an IntersectionObserver on the element after the list), or when
// the "Load more" button is pressed (the keyboard way; focus then moves to the first new row).
//
// Windowing: the loaded episodes are cut into chunks of CHUNK rows. A chunk near the viewport is
// rows; one far from it (more than WINDOW_FAR screens away) is a single spacer <li> exactly as tall as
// its rows were when they were measured, so dropping it moves nothing on the screen. A spacer
// coming back near the viewport becomes rows again; if they are not as tall as the spacer (the
// window was resized meanwhile, a refetch changed a row) the first row on screen is measured before
// and after and the page is scrolled by the difference, so what is on screen stays put. With chunks
// of 50 rows and a window of ±2.5 screens the list holds between 50 and about 250 rows whatever its
// length. The chunk holding the focused row is never dropped.
//
// Pages follow the last episode loaded (`after`), not a count: a page deep in a long list costs what
// the first one does, and episodes arriving at the top while one scrolls neither repeat nor vanish.
//
// Refetching (`refresh()`, on a `library` message): everything loaded so far is fetched again
// (pages of up to 1000); when anything differs the list is rebuilt around the first row on screen,
// and that row is put back where it was (the row that took its place, when it left the list), as
// is the focus. When nothing differs the rows stay as they are.
//
// Coming back (Back to this history entry): with `memory`, the entry keeps how many episodes were
// loaded and each chunk's height (history.state, written a moment after each scroll or page), so
// the list comes back as long and as tall as it was and the router's scroll restoration lands on
// the same row, not on the end of the first page.

import { h } from '../core/dom.js';
import { markNowPlaying } from './now-playing.js';

const CHUNK = 50;
const PAGE = 100;
const MAX_REQUEST = 1000; // the server's largest page
const WINDOW_NEAR = 1; // screens: a spacer this close becomes rows
const WINDOW_FAR = 2.5; // screens: rows this far become a spacer
const AHEAD = '0px 0px 1200px 0px'; // fetch the next page this far before the end shows
const GUESS = 80; // px, a row's height before any has been measured

/**
 * `{el, reset(), refresh(), destroy(), items}`.
 * - `load(offset, limit, signal, after)` → Promise of `{episodes, more}` (one page of the API's answer):
 *   the page after the episode id `after` (keyset paging, docs/protocol.md), or at `offset` when
 *   `after` is null (the first page, or the episode left the library and the server said 400);
 * - `row(episode)` → the `<li>` for one episode;
 * - `emptyText()` → what an empty list says;
 * - `onPage(body)` is told every answer (totals, say);
 * - `label`: the list's accessible name;
 * - `memory()` → a key naming what the list shows (view, filter, sort): what is kept in the history
 *   entry for Back is used only by a list with the same key.
 */
export function pagedList({ load, row, emptyText, onPage = () => {}, label = 'Episodes', pageSize = PAGE, memory = null }) {
  const spinner = h('span', { class: 'spinner', 'aria-hidden': 'true' });
  const moreLabel = h('span', { class: 'button-label' }, 'Load more');
  const moreButton = h('button', { type: 'button', class: 'button button-small list-more' }, spinner, moreLabel);
  const status = h('p', { class: 'list-status', role: 'status' });
  const end = h('div', { class: 'list-end' }, moreButton, status);
  const root = h('div', { class: 'paged-list', dataset: { state: 'loading' } }, end);

  let items = [];
  let hasMore = false;
  let chunks = []; // {rows: [li] | null, spacer: li | null}
  let heights = []; // the measured height of each chunk's rows (px), or undefined
  let list = null; // the <ol> on screen (a new one after each refetch)
  let empty = null;
  let generation = 0; // a reset or refetch starts a new one: older answers are dropped
  let controller = new AbortController();
  let pageLoading = false;
  let failure = null;
  let loadedOnce = false;
  let frame = 0;
  let refreshTimer = 0;
  let destroyed = false;
  let busy = false; // a fetch of this generation is under way
  let saveTimer = 0;
  let refreshAfter = false; // a refresh asked for while a reset was fetching
  let refetching = false;
  const path = location.pathname; // the history entry this list belongs to

  /** The page after episode `previous` (null: at `offset`); at `offset` too when the server no longer
   *  holds `previous` (400: it was removed), so a list never gets stuck on a vanished row. */
  const pageAfter = async (previous, offset, limit, signal) => {
    if (previous?.id == null) return load(offset, limit, signal, null);
    try {
      return await load(offset, limit, signal, previous.id);
    } catch (error) {
      if (error?.status !== 400) throw error;
      return load(offset, limit, signal, null);
    }
  };

  const chunkStart = (k) => k * CHUNK;
  const chunkEnd = (k) => Math.min((k + 1) * CHUNK, items.length);
  const averageRow = () => {
    const known = heights.map((height, k) => [height, chunkEnd(k) - chunkStart(k)]).filter(([height, n]) => height > 0 && n > 0);
    const rows = known.reduce((sum, [, n]) => sum + n, 0);
    return rows ? known.reduce((sum, [height]) => sum + height, 0) / rows : GUESS;
  };

  const buildRows = (k) => {
    const fragment = document.createDocumentFragment();
    const size = hasMore ? '-1' : String(items.length);
    for (let i = chunkStart(k); i < chunkEnd(k); i += 1) {
      const li = row(items[i]);
      li.setAttribute('aria-posinset', String(i + 1));
      li.setAttribute('aria-setsize', size);
      fragment.append(li);
    }
    markNowPlaying(fragment);
    return fragment;
  };

  /** Chunk `k` as rows: in place of its spacer, or at the end of the list when it is new. */
  const renderChunk = (k) => {
    const chunk = chunks[k];
    const fragment = buildRows(k);
    chunk.rows = [...fragment.children];
    if (chunk.spacer) chunk.spacer.replaceWith(fragment);
    else list.append(fragment);
    chunk.spacer = null;
  };

  const spacerOf = (height) => {
    const spacer = h('li', { class: 'list-spacer', 'aria-hidden': 'true' });
    spacer.style.height = `${Math.max(0, height)}px`; // CSSOM: the CSP allows no style attributes
    return spacer;
  };

  /** Chunk `k` as one spacer `height` px tall. */
  const collapseChunk = (k, height) => {
    const chunk = chunks[k];
    heights[k] = height;
    chunk.spacer = spacerOf(height);
    chunk.rows[0].before(chunk.spacer);
    for (const li of chunk.rows) li.remove();
    chunk.rows = null;
  };

  const shown = (li) => !li.hidden; // a row the Inbox hid while it leaves takes no room
  /** Where chunk `chunk` is on screen (viewport px); a chunk whose rows are all hidden is "here". */
  const boxOf = (chunk) => {
    if (chunk.rows) {
      const first = chunk.rows.find(shown);
      const last = chunk.rows.findLast(shown);
      if (!first) return { top: 0, bottom: 0 };
      return { top: first.getBoundingClientRect().top, bottom: last.getBoundingClientRect().bottom };
    }
    const r = chunk.spacer.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  };

  /** The first row on screen below the sticky header, or null. */
  const rowOnScreen = () => {
    if (!list) return null;
    const top = document.querySelector('.app-header')?.getBoundingClientRect().bottom ?? 0;
    for (const chunk of chunks) {
      if (!chunk.rows) continue;
      const last = chunk.rows.findLast(shown);
      if (!last || last.getBoundingClientRect().bottom <= top) continue;
      return chunk.rows.find((li) => shown(li) && li.getBoundingClientRect().bottom > top) ?? null;
    }
    return null;
  };

  /** The windowing pass: rows near the viewport, spacers far from it, the screen kept still. */
  const update = () => {
    frame = 0;
    if (!list?.isConnected || destroyed) return;
    const screen = window.innerHeight || 800;
    const focused = document.activeElement?.closest?.('.paged-list li');
    const boxes = chunks.map(boxOf); // read everything first, then write
    const anchor = rowOnScreen();
    const anchorTop = anchor?.getBoundingClientRect().top ?? 0;
    let changed = false;
    chunks.forEach((chunk, k) => {
      const { top, bottom } = boxes[k];
      if (!chunk.rows && bottom > -WINDOW_NEAR * screen && top < (1 + WINDOW_NEAR) * screen) {
        renderChunk(k);
        changed = true;
      } else if (chunk.rows && (bottom < -WINDOW_FAR * screen || top > (1 + WINDOW_FAR) * screen)
                 && !(focused && chunk.rows.includes(focused))) {
        collapseChunk(k, bottom - top);
        changed = true;
      }
    });
    if (!changed) return;
    if (anchor?.isConnected) {
      const moved = anchor.getBoundingClientRect().top - anchorTop;
      if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    }
    schedule(); // a chunk shorter than its spacer may bring the next one near
  };
  const schedule = () => {
    if (!frame && !destroyed) frame = requestAnimationFrame(update);
  };

  /** A new <ol> for `items`, with rows for the chunks around index `center`, spacers elsewhere. */
  const buildList = (center) => {
    const ol = h('ol', { class: 'episode-list', 'aria-label': label });
    list = ol;
    const count = Math.ceil(items.length / CHUNK);
    const middle = Math.floor(center / CHUNK);
    const average = averageRow();
    chunks = [];
    for (let k = 0; k < count; k += 1) {
      chunks.push({ rows: null, spacer: null });
      if (Math.abs(k - middle) <= 1) renderChunk(k);
      else {
        chunks[k].spacer = spacerOf(heights[k] ?? (chunkEnd(k) - chunkStart(k)) * average);
        ol.append(chunks[k].spacer);
      }
    }
    heights.length = count;
    return ol;
  };

  /** Puts `items` on screen (a new list, or the empty text), keeping `keep` ({id, index, top}) still. */
  /** Each chunk's height now: measured for rows, kept for spacers. */
  const measure = () => {
    for (const [k, chunk] of chunks.entries()) if (chunk.rows) heights[k] = boxOf(chunk).bottom - boxOf(chunk).top;
    return heights;
  };

  /** Writes what Back needs into this history entry (see the top). */
  const remember = () => {
    saveTimer = 0;
    const key = memory?.();
    if (!key || destroyed || !loadedOnce || location.pathname !== path || !list?.isConnected) return;
    const kept = measure().slice(0, chunks.length).map((height) => (height > 0 ? height : null)); // exact: rounding adds up
    try {
      history.replaceState({ ...history.state, pagedList: { key, loaded: items.length, heights: kept } }, '');
    } catch {
      // a browser refusing too many history writes: Back lands at the first page, no harm done
    }
  };
  const rememberSoon = () => {
    if (!memory || destroyed) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(remember, 300);
  };

  const show = (keep, focus) => {
    if (keep) measure();
    const old = list ?? empty;
    if (items.length === 0) {
      empty = h('p', { class: 'empty' }, emptyText());
      list = null;
      chunks = [];
      if (old) old.replaceWith(empty);
      else root.prepend(empty);
      return;
    }
    let index = 0;
    if (keep) {
      const found = items.findIndex((episode) => episode.id === keep.id);
      index = found >= 0 ? found : Math.min(keep.index, items.length - 1);
    }
    const ol = buildList(index);
    if (old) old.replaceWith(ol);
    else root.prepend(ol);
    empty = null;
    if (keep) {
      const li = ol.querySelector(`li[aria-posinset="${index + 1}"]`);
      if (li) window.scrollBy(0, li.getBoundingClientRect().top - keep.top);
    }
    if (focus) {
      const li = ol.querySelector(`li[data-episode-id="${focus.id}"]`);
      const target = li && (focus.selector ? li.querySelector(focus.selector) : null);
      (target ?? li?.querySelector('a, button'))?.focus({ preventScroll: true });
    }
    schedule();
  };

  /** Adds a page's episodes at the end (into the last chunk until it is full, then new chunks). */
  const append = (episodes) => {
    if (!list) {
      items = episodes;
      show(null, null);
      return;
    }
    const before = items.length;
    items = items.concat(episodes);
    let k = chunks.length - 1;
    const last = chunks[k];
    if (last && chunkEnd(k) > before) {
      if (last.rows) {
        const fragment = document.createDocumentFragment();
        const size = hasMore ? '-1' : String(items.length);
        for (let i = before; i < chunkEnd(k); i += 1) {
          const li = row(items[i]);
          li.setAttribute('aria-posinset', String(i + 1));
          li.setAttribute('aria-setsize', size);
          fragment.append(li);
        }
        markNowPlaying(fragment);
        const added = [...fragment.children];
        last.rows[last.rows.length - 1].after(fragment);
        last.rows.push(...added);
      } else {
        renderChunk(k);
      }
    }
    for (k = chunks.length; chunkStart(k) < items.length; k += 1) {
      chunks.push({ rows: null, spacer: null });
      renderChunk(k);
    }
    schedule();
  };

  const syncEnd = () => {
    root.setAttribute('aria-busy', String(busy));
    root.dataset.loaded = String(items.length);
    const state = !loadedOnce ? 'loading' : failure ? 'failed' : pageLoading ? 'loading' : hasMore ? 'more' : items.length ? 'complete' : 'empty';
    root.dataset.state = state;
    moreButton.hidden = !(hasMore || failure) || !loadedOnce;
    moreButton.setAttribute('aria-busy', String(pageLoading));
    moreLabel.textContent = failure ? 'Try again' : pageLoading ? 'Loading…' : 'Load more';
    status.textContent = failure ? `Could not load more episodes: ${failure}`
      : state === 'complete' && items.length > pageSize ? `All ${items.length.toLocaleString('en')} episodes` : '';
    status.classList.toggle('is-error', Boolean(failure));
    if (list && !hasMore) {
      for (const li of list.querySelectorAll('li[aria-setsize="-1"]')) li.setAttribute('aria-setsize', String(items.length));
    }
  };

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadNext();
  }, { rootMargin: AHEAD });
  observer.observe(end);
  /** Asks the observer again (it reports changes only: the end may still be in view after a page). */
  const recheck = () => {
    observer.unobserve(end);
    if (!destroyed) observer.observe(end);
  };

  async function loadNext({ fromButton = false } = {}) {
    if (pageLoading || !hasMore || !loadedOnce || destroyed) return;
    if (failure && !fromButton) return; // after a failure only the button tries again
    const mine = generation;
    pageLoading = true;
    busy = true;
    failure = null;
    syncEnd();
    const first = items.length;
    try {
      const body = await pageAfter(items[first - 1], first, pageSize, controller.signal);
      if (mine !== generation) return;
      const episodes = Array.isArray(body?.episodes) ? body.episodes : [];
      hasMore = Boolean(body?.more) && episodes.length > 0;
      append(episodes);
      onPage(body);
      rememberSoon();
      if (fromButton && document.activeElement === moreButton) {
        list?.querySelector(`li[aria-posinset="${first + 1}"] .episode-title, li[aria-posinset="${first + 1}"] a`)?.focus();
      }
    } catch (error) {
      if (error?.name === 'AbortError' || mine !== generation) return;
      failure = error.message || 'unknown error';
    } finally {
      if (mine === generation) {
        pageLoading = false;
        busy = false;
        syncEnd();
        recheck();
      }
    }
  }
  moreButton.addEventListener('click', () => loadNext({ fromButton: true }));

  /** Fetches the first `count` episodes (in pages the server allows); `{episodes, more, body}`. */
  const fetchFirst = async (count, signal) => {
    let episodes = [];
    let more = true;
    let body = null;
    while (more && episodes.length < count) {
      body = await pageAfter(episodes[episodes.length - 1], episodes.length, Math.min(MAX_REQUEST, count - episodes.length), signal);
      const page = Array.isArray(body?.episodes) ? body.episodes : [];
      episodes = episodes.concat(page);
      more = Boolean(body?.more) && page.length > 0;
    }
    return { episodes, more, body };
  };

  /** Starts a generation: pending answers of the old one are cancelled and ignored. */
  const begin = () => {
    generation += 1;
    controller.abort();
    controller = new AbortController();
    pageLoading = false;
    refetching = false;
    busy = true;
    failure = null;
    return generation;
  };

  const onScroll = () => {
    schedule();
    rememberSoon();
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('resize', onScroll);

  return {
    el: root,
    get items() { return items; },

    /** Shows the first page of a new query (what was on screen stays until it arrives). With
     *  `restore`, coming back to a history entry that kept this list (same `memory` key): as many
     *  episodes as were loaded then, every chunk as tall as it was (the router then scrolls). */
    async reset({ restore = false } = {}) {
      const mine = begin();
      clearTimeout(refreshTimer);
      syncEnd();
      // Not on the page's first view (a reload starts at the top: no need to fetch it all again).
      const kept = restore && memory && document.body.dataset.ready === 'true' ? history.state?.pagedList : null;
      const usable = kept && kept.key === memory() && Number.isInteger(kept.loaded) && kept.loaded > 0;
      try {
        const { episodes, more, body } = await fetchFirst(usable ? Math.max(pageSize, kept.loaded) : pageSize, controller.signal);
        if (mine !== generation) return;
        items = episodes;
        hasMore = more;
        chunks = []; // nothing of the old list is measured: another query
        heights = usable && Array.isArray(kept.heights)
          ? kept.heights.map((height) => (Number.isFinite(height) && height > 0 ? height : undefined)) : [];
        loadedOnce = true;
        show(null, null);
        onPage(body);
        rememberSoon();
      } catch (error) {
        if (error?.name === 'AbortError' || mine !== generation) return;
        loadedOnce = true;
        items = [];
        hasMore = true; // the button offers to try again
        failure = error.message || 'unknown error';
        show(null, null);
        if (empty) empty.textContent = `Could not load the episodes: ${failure}`;
      } finally {
        if (mine === generation) {
          busy = false;
          syncEnd();
          recheck();
          if (refreshAfter) {
            refreshAfter = false;
            refetch(null);
          }
        }
      }
    },

    /** Refetches everything loaded so far and puts it back without moving what is on screen
     *  (calls in one task are one refetch; a newer one cancels an older one under way). `focus`: {id, selector} to focus afterwards
     *  (default: the control that has focus, if it is in the list). */
    refresh({ focus = null } = {}) {
      clearTimeout(refreshTimer);
      const pendingFocus = focus;
      refreshTimer = setTimeout(() => refetch(pendingFocus), 0);
    },

    destroy() {
      destroyed = true;
      begin();
      clearTimeout(refreshTimer);
      clearTimeout(saveTimer);
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    },
  };

  async function refetch(focus) {
    if (destroyed) return;
    if (!loadedOnce || (busy && !pageLoading && !refetching)) {
      refreshAfter = true; // the first page (or a reset) is on its way: fetch again once it is in
      return;
    }
    const mine = begin();
    refetching = true;
    syncEnd();
    try {
      const { episodes, more, body } = await fetchFirst(Math.max(items.length, pageSize), controller.signal);
      if (mine !== generation) return;
      // Nothing this list shows changed (another podcast's refresh, a queue change): the rows stay,
      // with their focus and whatever the listener was about to tap.
      if (more === hasMore && episodes.length === items.length && JSON.stringify(episodes) === JSON.stringify(items)) {
        onPage(body);
        return;
      }
      const anchor = rowOnScreen();
      const keep = anchor ? { id: Number(anchor.dataset.episodeId), index: Number(anchor.getAttribute('aria-posinset')) - 1, top: anchor.getBoundingClientRect().top } : null;
      const active = document.activeElement;
      const activeRow = list && active && list.contains(active) ? active.closest('li[data-episode-id]') : null;
      const restore = focus ?? (activeRow ? { id: Number(activeRow.dataset.episodeId), selector: focusSelector(active) } : null);
      items = episodes;
      hasMore = more;
      show(keep, restore);
      onPage(body);
      rememberSoon();
    } catch (error) {
      if (error?.name === 'AbortError' || mine !== generation) return;
      failure = error.message || 'unknown error';
    } finally {
      if (mine === generation) {
        refetching = false;
        busy = false;
        syncEnd();
        recheck();
      }
    }
  }
}

/** A selector that finds `el`'s counterpart in a rebuilt row (its action, else its class). */
function focusSelector(el) {
  if (el.dataset?.action) return `[data-action="${el.dataset.action}"]`;
  if (el.dataset?.inbox) return `[data-inbox="${el.dataset.inbox}"]`;
  if (el.dataset?.download) return '[data-download]';
  const name = [...(el.classList ?? [])][0];
  return name ? `.${CSS.escape(name)}` : null;
}
