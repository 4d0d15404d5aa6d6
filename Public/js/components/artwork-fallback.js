// Artwork that fails to load (a dead link, no network) becomes the neutral
// placeholder instead of a broken-image icon — for server-rendered and JS-built images.

/** Installs one capturing `error` listener for every artwork image on the page. */
export function initArtworkFallback() {
  document.addEventListener('error', (event) => {
    if (event.target instanceof HTMLImageElement) fallBack(event.target);
  }, true);
  // Images of the first paint may have failed before this module ran.
  for (const img of document.images) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) fallBack(img);
  }
}

function fallBack(img) {
  if (img.matches('.mini-art, .player-art, .notes-image')) {
    img.hidden = true; // their boxes already show the placeholder; a dead image in show notes just goes
  } else if (img.matches('.art, .tile-art, .podcast-header-art')) {
    const placeholder = document.createElement('span');
    placeholder.className = `${img.className} art-fallback`;
    placeholder.setAttribute('aria-hidden', 'true');
    img.replaceWith(placeholder);
  }
}
