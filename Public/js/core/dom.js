// DOM helpers. Everything the page shows is built with createElement and
// textContent, so text from feeds can never become markup.

import { artworkURL } from './artwork-url.js';

/**
 * Builds an element. `attrs` keys: `class`, `dataset` (object), `on` (event → handler),
 * `text` (textContent); any other key becomes an attribute (`true` → empty attribute,
 * `false`/`null`/`undefined` → left out). Children may be nodes, strings or nested arrays.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key === 'text') el.textContent = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  appendAll(el, children);
  return el;
}

/** Appends nodes or text (nested arrays flattened, null/false skipped). */
export function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Only http(s) URLs (absolute or same-origin relative) may reach src/href. */
export function safeUrl(url) {
  if (typeof url !== 'string' || url === '') return null;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** An absolute URL whose scheme is one of `schemes` (default http and https), normalized; else
 *  null. Leading/trailing spaces, letter case and entity tricks are gone by the time the URL
 *  parser has read it, so "  JaVaScRiPt:…" is seen as `javascript:` and refused. */
export function absoluteUrl(url, schemes = ['http:', 'https:']) {
  if (typeof url !== 'string' || url.trim() === '') return null;
  try {
    const parsed = new URL(url);
    return schemes.includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null; // relative or malformed: a feed link must say where it goes
  }
}

/** A link to another site (http/https only) that opens in a new tab and tells it nothing about
 *  us; plain text when `url` is not such a link. */
export function externalLink(url, label, className = 'external-link') {
  const href = absoluteUrl(url);
  if (!href) return h('span', { class: className }, label);
  return h('a', { class: className, href, target: '_blank', rel: 'noopener noreferrer' }, label);
}

/** Artwork image (the server's kept copy of it, core/artwork-url.js), or a neutral placeholder
 *  square when there is none. */
export function artwork(url, className = 'art', size = 56) {
  const src = safeUrl(artworkURL(url, size));
  if (!src) return h('span', { class: `${className} art-fallback`, 'aria-hidden': 'true' });
  return h('img', { class: className, src, alt: '', width: size, height: size, loading: 'lazy', decoding: 'async' });
}
