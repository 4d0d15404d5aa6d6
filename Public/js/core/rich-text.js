// Show notes: the server sends them sanitized as a tree (a node is a string, or
// {"t": tag, "a": {attribute: value}, "c": [nodes]}). This builds DOM from that tree with
// createElement / textContent / setAttribute only, and checks everything again here: the
// server's sanitizer is the first wall, this is the second, the page's CSP the third.
// No markup string is ever parsed, so nothing in a feed can become script or style.

import { absoluteUrl } from './dom.js';

const MAX_DEPTH = 64; // deeper than any real show notes; beyond it, text only
const TAGS = new Set(['p', 'br', 'a', 'strong', 'em', 'b', 'i', 'ul', 'ol', 'li', 'blockquote',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img']);
const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];
const IMAGE_SCHEMES = ['http:', 'https:'];

/** A DocumentFragment for `nodes` (the `notes` of an episode's details). */
export function richText(nodes) {
  const fragment = document.createDocumentFragment();
  appendNodes(fragment, nodes, 0);
  return fragment;
}

/** Whether `nodes` holds any text or image worth a "Show notes" section. */
export function hasRichText(nodes) {
  if (!Array.isArray(nodes)) return false;
  const stack = [...nodes];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (node.trim() !== '') return true;
    } else if (node && typeof node === 'object') {
      if (node.t === 'img') return true;
      if (Array.isArray(node.c)) stack.push(...node.c);
    }
  }
  return false;
}

function appendNodes(parent, nodes, depth) {
  if (!Array.isArray(nodes)) return;
  for (const node of nodes) {
    const built = build(node, depth);
    if (built) parent.append(built);
  }
}

function build(node, depth) {
  if (typeof node === 'string') return document.createTextNode(node);
  if (!node || typeof node !== 'object' || typeof node.t !== 'string') return null;
  if (depth >= MAX_DEPTH) return document.createTextNode(textOf(node));
  const tag = node.t.toLowerCase();
  const attrs = node.a && typeof node.a === 'object' ? node.a : {};
  // An unknown tag (or a link we refuse) is rendered as its children: its text stays readable.
  if (!TAGS.has(tag)) return children(node, depth);
  if (tag === 'img') return image(attrs);
  if (tag === 'a') {
    const href = absoluteUrl(stringAttr(attrs.href), LINK_SCHEMES);
    if (!href) return children(node, depth);
    const link = document.createElement('a');
    link.setAttribute('href', href);
    link.setAttribute('rel', 'noopener noreferrer nofollow');
    link.setAttribute('target', '_blank');
    appendNodes(link, node.c, depth + 1);
    return link;
  }
  const el = document.createElement(tag);
  if (tag !== 'br') appendNodes(el, node.c, depth + 1);
  return el;
}

function children(node, depth) {
  const fragment = document.createDocumentFragment();
  appendNodes(fragment, node.c, depth + 1);
  return fragment;
}

function image(attrs) {
  const src = absoluteUrl(stringAttr(attrs.src), IMAGE_SCHEMES);
  if (!src) return null;
  const img = document.createElement('img');
  img.setAttribute('src', src);
  img.setAttribute('alt', stringAttr(attrs.alt) ?? '');
  img.setAttribute('loading', 'lazy');
  img.setAttribute('decoding', 'async');
  img.setAttribute('referrerpolicy', 'no-referrer');
  img.className = 'notes-image';
  for (const name of ['width', 'height']) {
    const value = stringAttr(attrs[name]);
    if (value && /^\d{1,4}$/.test(value)) img.setAttribute(name, value);
  }
  return img;
}

function stringAttr(value) {
  return typeof value === 'string' ? value : null;
}

/** The text of a subtree, without recursion (for the rare tree deeper than MAX_DEPTH). */
function textOf(node) {
  let text = '';
  const stack = [node];
  while (stack.length) {
    const next = stack.pop();
    if (typeof next === 'string') text += next;
    else if (next && Array.isArray(next.c)) for (let i = next.c.length - 1; i >= 0; i -= 1) stack.push(next.c[i]);
  }
  return text;
}
