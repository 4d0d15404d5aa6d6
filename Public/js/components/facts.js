// What a feed says about a show or an episode beyond lists: owner, categories, explicit,
// funding links, people, transcripts. Only http(s) links (mailto for an owner's address) leave
// the page, each in a new tab with no referrer and no opener.

import { h, absoluteUrl, externalLink } from '../core/dom.js';
import { icon } from '../core/icons.js';

/** A `<dl class="facts">` of label → value rows; null when there is no row. */
export function factList(rows, className = 'facts') {
  const shown = rows.filter((row) => row && row[1] !== null && row[1] !== undefined && row[1] !== '' &&
    !(Array.isArray(row[1]) && row[1].length === 0));
  if (!shown.length) return null;
  return h('dl', { class: className }, shown.map(([label, value]) => h('div', {}, h('dt', {}, label), h('dd', {}, value))));
}

/** The rows of a podcast's details. */
export function podcastFacts(podcast) {
  const d = podcast.details ?? {};
  const owner = ownerValue(d, podcast.author);
  const categories = Array.isArray(d.categories)
    ? d.categories.filter(Array.isArray).map((path) => path.filter(Boolean).join(' › ')).filter(Boolean).join(', ')
    : '';
  const funding = fundingLinks(d);
  return factList([
    ['Owner', owner],
    ['Categories', categories],
    ['Language', languageName(d.language)],
    ['Order', d.type === 'serial' ? 'Serial: listen from the first episode' : ''],
    ['Explicit', d.explicit === true ? 'Yes' : ''],
    ['People', people(d.persons)],
    ['Website', absoluteUrl(podcast.link) ? externalLink(podcast.link, hostLabel(podcast.link)) : ''],
    ['Support', funding],
  ], 'facts podcast-facts');
}

/** Funding links (podcast:funding, atom payment), http(s) only; [] when none. */
export function fundingLinks(details) {
  const links = [];
  const seen = new Set();
  const add = (url, title) => {
    const href = absoluteUrl(url);
    if (!href || seen.has(href)) return;
    seen.add(href);
    links.push(h('a', { class: 'chip-link', href, target: '_blank', rel: 'noopener noreferrer' },
      title?.trim() || hostLabel(href), icon('external')));
  };
  for (const f of Array.isArray(details.funding) ? details.funding : []) add(f?.url, f?.title);
  add(details.paymentURL, 'Support');
  return links.length ? h('span', { class: 'chip-links' }, links) : '';
}

/** "Jane Doe (host), Sam Roe (guest)", names linked when they have an http(s) page; '' when none. */
export function people(persons) {
  if (!Array.isArray(persons) || !persons.length) return '';
  const out = [];
  persons.filter((p) => p && typeof p.name === 'string' && p.name.trim()).forEach((p, i) => {
    if (i > 0) out.push(', ');
    out.push(absoluteUrl(p.href) ? externalLink(p.href, p.name) : p.name);
    if (p.role) out.push(h('span', { class: 'person-role' }, ` (${String(p.role).toLowerCase()})`));
  });
  return out.length ? h('span', { class: 'people' }, out) : '';
}

/** Transcript links ("Transcript (WebVTT, en)"), http(s) only; '' when none. */
export function transcriptLinks(transcripts) {
  if (!Array.isArray(transcripts)) return '';
  const links = transcripts.filter((t) => absoluteUrl(t?.url)).map((t) => {
    const what = [transcriptFormat(t.type), t.language].filter(Boolean).join(', ');
    return h('a', { class: 'chip-link', href: absoluteUrl(t.url), target: '_blank', rel: 'noopener noreferrer' },
      what ? `Transcript (${what})` : 'Transcript', icon('external'));
  });
  return links.length ? h('span', { class: 'chip-links' }, links) : '';
}

function ownerValue(d, author) {
  const name = typeof d.ownerName === 'string' ? d.ownerName.trim() : '';
  const email = typeof d.ownerEmail === 'string' ? d.ownerEmail.trim() : '';
  const mail = email ? absoluteUrl(`mailto:${email}`, ['mailto:']) : null;
  if (!name && !mail) return '';
  if (name && name === author && !mail) return ''; // the header already says it
  const parts = [];
  if (name) parts.push(name);
  if (mail) parts.push(parts.length ? ' · ' : '', h('a', { href: mail }, email));
  return parts;
}

const FORMATS = {
  'text/vtt': 'WebVTT', 'application/x-subrip': 'SRT', 'application/srt': 'SRT', 'text/srt': 'SRT',
  'text/html': 'web page', 'application/json': 'JSON', 'text/plain': 'text',
};

function transcriptFormat(type) {
  return typeof type === 'string' ? FORMATS[type.toLowerCase()] ?? '' : '';
}

function languageName(code) {
  if (typeof code !== 'string' || !code.trim()) return '';
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code.trim()) ?? code;
  } catch {
    return code;
  }
}

function hostLabel(url) {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
