// Inline SVG icons, built as SVG DOM (no markup strings). 24×24 view box.

const NS = 'http://www.w3.org/2000/svg';

const PATHS = {
  play: 'M8 5.5v13a1 1 0 0 0 1.5.86l10.2-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z',
  pause: 'M6.5 5h3.5v14H6.5zM14 5h3.5v14H14z',
  // Skip icons: an open circle (stroked) ending in an arrowhead (filled), the seconds inside.
  skipArc: 'M12 5a8 8 0 1 1-8 8',
  skipHead: 'M12.5 1.75v6.5L8.25 5z',
  chevronDown: 'M6.4 8.6 12 14.2l5.6-5.6L19 10l-7 7-7-7z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  plus: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z',
  refresh: 'M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4z',
  alert: 'M11 15h2v2h-2zm0-8h2v6h-2zm1-5a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16z',
  external: 'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7h-2zM14 3v2h3.59l-9.83 9.83 1.41 1.41L19 6.41V10h2V3z',
  upload: 'M5 20h14v-2H5zm0-10h4v6h6v-6h4l-7-7z',
  download: 'M19 9h-4V3H9v6H5l7 7zM5 18v2h14v-2z',
};

/** An `<svg class="icon">` for `name` (play, pause, back15, forward15, chevronDown, check, plus,
 *  refresh, alert, external, upload, download). */
export function icon(name) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  if (name === 'back15' || name === 'forward15') {
    const arrow = svgNode('g', {});
    arrow.append(svgNode('path', { d: PATHS.skipArc, class: 'icon-stroke' }), svgNode('path', { d: PATHS.skipHead }));
    // The forward arrow is the back arrow mirrored.
    if (name === 'forward15') arrow.setAttribute('transform', 'matrix(-1 0 0 1 24 0)');
    const label = svgNode('text', { x: '12', y: '15.5', 'text-anchor': 'middle', class: 'icon-number' });
    label.textContent = '15';
    svg.append(arrow, label);
  } else {
    svg.append(svgNode('path', { d: PATHS[name] }));
  }
  return svg;
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}
