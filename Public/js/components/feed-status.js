// How a feed is doing, in words: when it was last refreshed, why the last refresh failed (or
// that the feed is gone), and what the parser had to work around — for the podcast page and
// the badges on library tiles.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { ago, plural } from '../core/format.js';

/** "Error" / "Gone" for a podcast whose feed is in trouble, else null. */
export function badgeLabel(podcast) {
  if (podcast?.status === 'gone') return 'Gone';
  if (podcast?.status === 'error') return 'Error';
  return null;
}

/** The tile badge (same markup as the first paint), or null. */
export function tileBadge(podcast) {
  const label = badgeLabel(podcast);
  if (!label) return null;
  return h('span', { class: 'tile-badge', title: podcast.error || '' },
    icon('alert'), h('span', { class: 'tile-badge-label' }, label));
}

/** "Refreshed 2 h ago"; "Checked 2 h ago" for a feed whose last refresh failed (nothing was
 *  refreshed then); "" when the server never refreshed it. */
export function refreshedText(podcast) {
  const when = ago(podcast?.refreshedAt);
  if (!when) return '';
  return `${podcast.status === 'error' || podcast.status === 'gone' ? 'Checked' : 'Refreshed'} ${when}`;
}

/** A notice box for a feed whose last refresh failed or that is gone; null when all is well. */
export function feedNotice(podcast) {
  const status = podcast?.status;
  if (status !== 'error' && status !== 'gone') return null;
  const detail = typeof podcast.error === 'string' ? podcast.error.trim() : '';
  const code = /\bHTTP (\d{3})\b/.exec(detail)?.[1] ?? /\b(4\d\d|5\d\d)\b/.exec(detail)?.[1];
  let headline;
  let advice;
  if (status === 'gone') {
    headline = `This feed is gone${code ? ` (HTTP ${code})` : ''}.`;
    advice = 'Its episodes stay in your library.';
  } else {
    headline = `The last refresh failed${code ? ` (HTTP ${code})` : ''}.`;
    advice = 'The episodes you have stay. Earshot tries again at the next refresh.';
  }
  return h('div', { class: `notice notice-${status}` },
    icon('alert'),
    h('div', { class: 'notice-body' },
      h('p', { class: 'notice-title' }, headline, ' ', h('span', { class: 'notice-advice' }, advice)),
      detail ? h('p', { class: 'notice-detail' }, detail) : null));
}

/** A discreet, folded note listing what the parser recovered from; null when nothing. */
export function warningsNote(podcast) {
  const warnings = Array.isArray(podcast?.warnings) ? podcast.warnings.filter((w) => typeof w === 'string' && w) : [];
  if (!warnings.length) return null;
  return h('details', { class: 'feed-warnings' },
    h('summary', {}, `This feed has ${plural(warnings.length, 'problem')} Earshot worked around`),
    h('ul', {}, warnings.map((w) => h('li', {}, w))));
}
