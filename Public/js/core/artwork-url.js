// Artwork through the server's cache: `/artwork/{key}/{size}.jpg`, the key being FNV-1a 64 of
// the artwork's address (16 hex digits; the server's EarshotCore/ArtworkAddress.swift computes
// the same, and renders the first paint with it). The server fetches each picture once, keeps it
// in 96, 256 and 512 px, and lets browsers cache it for a year; when it cannot fetch one it
// redirects to the original. Addresses that are not http(s) (the bundled demo's "/demo/…") are
// used as they are.

export const ARTWORK_SIZES = [96, 256, 512];

const keys = new Map(); // address → key: rows redraw often, hashing once is enough

/** FNV-1a 64 of `url`'s UTF-8, as 16 lowercase hex digits. */
export function artworkKey(url) {
  let key = keys.get(url);
  if (key) return key;
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(url)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  key = hash.toString(16).padStart(16, '0');
  if (keys.size > 2000) keys.clear();
  keys.set(url, key);
  return key;
}

/** The kept size for an image drawn `cssSize` px wide on this screen (2× at most). */
export function artworkSize(cssSize) {
  const wanted = cssSize * Math.min(2, Math.max(1, window.devicePixelRatio || 1));
  return ARTWORK_SIZES.find((size) => size >= wanted) ?? ARTWORK_SIZES[ARTWORK_SIZES.length - 1];
}

/** What an image of the artwork at `url`, drawn `cssSize` px wide, should load; null for none. */
export function artworkURL(url, cssSize = 56) {
  if (typeof url !== 'string' || url === '') return null;
  const scheme = url.slice(0, 8).toLowerCase();
  if (!scheme.startsWith('http://') && !scheme.startsWith('https://')) return url;
  return `/artwork/${artworkKey(url)}/${artworkSize(cssSize)}.jpg`;
}

/** Media Session's artwork list: every kept size (the system picks), or the address itself. */
export function artworkSet(url) {
  if (typeof url !== 'string' || url === '') return [];
  const scheme = url.slice(0, 8).toLowerCase();
  if (!scheme.startsWith('http://') && !scheme.startsWith('https://')) return null; // the caller's own handling
  const key = artworkKey(url);
  return ARTWORK_SIZES.map((size) => ({ src: new URL(`/artwork/${key}/${size}.jpg`, location.href).href, sizes: `${size}x${size}`, type: 'image/jpeg' }));
}
