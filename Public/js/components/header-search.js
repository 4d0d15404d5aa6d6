// The header's library search field (Templates/index.mustache, `#header-search`), on every view.
// Typing shows results as you type: 250 ms after the last key the page goes to `/search?q=…`
// (the first time a new history entry, so Back returns to where the search started; then the
// entry is replaced, so Back does not step through every letter); Enter goes at once. `/`
// focuses the field (components/keyboard.js). Escape clears it; Escape in an empty field leaves
// it (and the results page, back to where the search started). Narrow screens show only a
// search button; it opens the field over the header, closed again by its Close button or by
// leaving the results. Results are announced through the field's own live region, which stays
// in the page while views come and go.

import { router } from '../core/router.js';

const DEBOUNCE_MS = 250;

let form = null;
let input = null;
let openButton = null;
let statusRegion = null;
let timer = null;

/** Wires the template's search form. */
export function initHeaderSearch(element) {
  form = element;
  if (!form) return;
  input = form.querySelector('.header-search-input');
  openButton = form.querySelector('.header-search-open');
  statusRegion = form.querySelector('.header-search-status');
  const closeButton = form.querySelector('.header-search-close');

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => show(input.value), DEBOUNCE_MS);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    show(input.value, { evenIfEmpty: true });
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (input.value !== '') {
        input.value = '';
        clearTimeout(timer);
        show('');
      } else {
        leave();
      }
    } else if (event.key === 'ArrowDown' && router.current === 'search') {
      // Down from the field: into the results.
      const first = document.querySelector('#view .search-results a[href]');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  openButton?.addEventListener('click', () => focusSearch());
  closeButton?.addEventListener('click', () => {
    input.value = '';
    clearTimeout(timer);
    leave();
  });

  // The view changed (a result chosen, Back, a link): the field follows the page.
  new MutationObserver(sync).observe(document.body, { attributes: true, attributeFilter: ['data-view'] });
  sync();
}

/** Opens (on a narrow screen) and focuses the field, its text selected. */
export function focusSearch() {
  if (!input) return;
  setOpen(true);
  input.focus();
  input.select();
}

/** Whether the header's field has the focus (the results view then leaves it there). */
export function searchFieldFocused() {
  return Boolean(input) && document.activeElement === input;
}

/** Says `text` to screen readers (the result counts), without moving the focus. */
export function announceSearch(text) {
  if (!statusRegion) return;
  statusRegion.textContent = text;
}

/** The query of the results page on screen ('' when there is none). */
export function currentQuery() {
  return new URLSearchParams(location.search).get('q') ?? '';
}

function show(value, { evenIfEmpty = false } = {}) {
  const q = value.replace(/\s+/g, ' ').trim();
  const path = q ? `/search?q=${encodeURIComponent(q)}` : '/search';
  if (router.current === 'search') {
    if (location.pathname + location.search === path) return; // the same search: nothing to redo
    router.navigate(path, { replace: true });
  } else if (q || evenIfEmpty) {
    router.navigate(path);
  }
}

/** Leaves the field: closes it, gives the focus back to the page, and leaves the results page. */
function leave() {
  setOpen(false);
  input.blur();
  if (router.current === 'search') router.back('/');
  else document.getElementById('view')?.focus({ preventScroll: true });
}

function setOpen(open) {
  form.classList.toggle('is-open', open);
  openButton?.setAttribute('aria-expanded', String(open));
}

function sync() {
  if (document.body.dataset.view === 'search') {
    if (document.activeElement !== input) input.value = currentQuery();
    setOpen(true);
    return;
  }
  clearTimeout(timer); // left (a result chosen, Back) before the last keystroke's search went out
  input.value = '';
  setOpen(false);
  announceSearch('');
}
