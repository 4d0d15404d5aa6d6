// Which episodes a list shows and in what order: the filters and sorts GET /api/episodes knows
// (docs/protocol.md), and where a view's choice is kept — the page's query string
// (`?filter=unplayed&sort=oldest`, so Back, Forward and reload keep it) and localStorage (so the
// view opens the way it was left). All / newest first is the default and is left out of the URL.

/** The filters, in the order the controls show them (`value` '' is All). */
export const FILTERS = Object.freeze([
  { value: '', label: 'All', empty: 'No episodes' },
  { value: 'unplayed', label: 'Unplayed', empty: 'No unplayed episodes' },
  { value: 'inprogress', label: 'In progress', empty: 'No episodes in progress' },
  { value: 'downloaded', label: 'Downloaded', empty: 'No downloaded episodes' },
  { value: 'played', label: 'Played', empty: 'No played episodes' },
]);

/** The sorts, in the order the controls show them. */
export const SORTS = Object.freeze([
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'shortest', label: 'Shortest first' },
  { value: 'longest', label: 'Longest first' },
]);

export const DEFAULT_CHOICE = Object.freeze({ filter: '', sort: 'newest' });

const STORAGE_PREFIX = 'earshot.episodes.';

/** `{filter, sort}` with anything unknown replaced by the default. */
export function cleanChoice(raw) {
  const filter = FILTERS.some((f) => f.value === raw?.filter) ? raw.filter : DEFAULT_CHOICE.filter;
  const sort = SORTS.some((s) => s.value === raw?.sort) ? raw.sort : DEFAULT_CHOICE.sort;
  return { filter, sort };
}

/** The choice for `view` ('library', 'podcast'): the URL's when it names one, else the stored one. */
export function readChoice(view) {
  const params = new URLSearchParams(location.search);
  if (params.has('filter') || params.has('sort')) {
    return cleanChoice({ filter: params.get('filter') ?? '', sort: params.get('sort') ?? DEFAULT_CHOICE.sort });
  }
  try {
    return cleanChoice(JSON.parse(localStorage.getItem(STORAGE_PREFIX + view) ?? 'null'));
  } catch {
    return { ...DEFAULT_CHOICE };
  }
}

/** Stores `choice` for `view` and writes it into the current history entry's URL (replacing it:
 *  trying filters does not fill the Back button). */
export function keepChoice(view, choice) {
  const { filter, sort } = cleanChoice(choice);
  try {
    localStorage.setItem(STORAGE_PREFIX + view, JSON.stringify({ filter, sort }));
  } catch {
    // private mode, storage full: the URL still keeps it
  }
  const url = new URL(location.href);
  url.searchParams.delete('filter');
  url.searchParams.delete('sort');
  if (filter) url.searchParams.set('filter', filter);
  if (sort !== DEFAULT_CHOICE.sort) url.searchParams.set('sort', sort);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}

/** The API path of one page of episodes for `choice` (and one podcast's, when `podcast` is set):
 *  the page after episode `after` when it is given, else at `offset`. */
export function episodesPath({ filter, sort }, { podcast = null, after = null, offset = 0, limit = 100 } = {}) {
  const params = new URLSearchParams();
  if (filter) params.set('filter', filter);
  if (sort && sort !== DEFAULT_CHOICE.sort) params.set('sort', sort);
  if (podcast !== null && podcast !== undefined) params.set('podcast', String(podcast));
  if (after !== null && after !== undefined) params.set('after', String(after));
  else params.set('offset', String(offset));
  params.set('limit', String(limit));
  return `/api/episodes?${params}`;
}

/** What an empty list says for `filter`. */
export function emptyText(filter, fallback = 'No episodes yet.') {
  if (!filter) return fallback;
  return `${FILTERS.find((f) => f.value === filter)?.empty ?? 'No episodes'}.`;
}
