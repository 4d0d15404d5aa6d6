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
  search: 'M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z',
  refresh: 'M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4z',
  alert: 'M11 15h2v2h-2zm0-8h2v6h-2zm1-5a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16z',
  external: 'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7h-2zM14 3v2h3.59l-9.83 9.83 1.41 1.41L19 6.41V10h2V3z',
  upload: 'M5 20h14v-2H5zm0-10h4v6h6v-6h4l-7-7z',
  download: 'M19 9h-4V3H9v6H5l7 7zM5 18v2h14v-2z',
  previous: 'M6 6h2v12H6zm3.5 6 8.5 6V6z',
  next: 'M6 18l8.5-6L6 6v12zM16 6v12h2V6h-2z',
  shuffle: 'M10.59 9.17 5.41 4 4 5.41l5.17 5.17 1.42-1.41zM14.5 4l2.04 2.04L4 18.59 5.41 20 17.96 7.46 20 9.5V4h-5.5zm.33 9.41-1.41 1.41 3.13 3.13L14.5 20H20v-5.5l-2.04 2.04-3.13-3.13z',
  repeat: 'M7 7h10v3l4-4-4-4v3H5v6h2V7zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2v4z',
  repeatOne: 'M7 7h10v3l4-4-4-4v3H5v6h2V7zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2v4zm-4-2V9h-1l-2 1v1h1.5v4H13z',
  alarm: 'M22 5.72 17.4 1.86 16.11 3.39l4.6 3.86zM7.88 3.39 6.6 1.86 2 5.71l1.29 1.53zM12.5 8H11v6l4.75 2.85.75-1.23-4-2.37zM12 4a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 16a7 7 0 1 1 0-14 7 7 0 0 1 0 14z',
  chart: 'M5 9.2h3V19H5zM10.6 5h2.8v14h-2.8zm5.6 8H19v6h-2.8z',
  queue: 'M15 6H3v2h12V6zm0 4H3v2h12v-2zM3 16h8v-2H3v2zM17 6v8.18A3 3 0 0 0 16 14a3 3 0 1 0 3 3V8h3V6h-5z',
  more: 'M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm0 6a2 2 0 1 0 0 4 2 2 0 0 0 0-4z',
  up: 'M4 12l1.41 1.41L11 7.83V20h2V7.83l5.58 5.59L20 12l-8-8-8 8z',
  down: 'M20 12l-1.41-1.41L13 16.17V4h-2v12.17l-5.58-5.59L4 12l8 8 8-8z',
  close: 'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
  playNext: 'M19 9H2v2h17V9zm0-4H2v2h17V5zM2 15h13v-2H2v2zm15-2v6l5-3-5-3z',
  addQueue: 'M14 10H3v2h11v-2zm0-4H3v2h11V6zm4 8v-4h-2v4h-4v2h4v4h2v-4h4v-2h-4zM3 16h7v-2H3v2z',
  volume: 'M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 7.97v8.05A4.47 4.47 0 0 0 16.5 12zM14 3.23v2.06a7 7 0 0 1 0 13.42v2.06a9 9 0 0 0 0-17.54z',
  volumeOff: 'M16.5 12A4.5 4.5 0 0 0 14 7.97v2.21l2.45 2.45c.03-.2.05-.41.05-.63zm2.5 0c0 .94-.2 1.82-.54 2.64l1.51 1.51A8.8 8.8 0 0 0 21 12a9 9 0 0 0-7-8.77v2.06A7 7 0 0 1 19 12zM4.27 3 3 4.27 7.73 9H3v6h4l5 5v-6.73l4.25 4.25c-.67.52-1.42.93-2.25 1.18v2.06a8.99 8.99 0 0 0 3.69-1.81L19.73 21 21 19.73l-9-9L4.27 3zM12 4 9.91 6.09 12 8.18V4z',
  moon: 'M12.3 2a10 10 0 1 0 9.7 12.4A8 8 0 0 1 12.3 2z',
  minus: 'M5 11h14v2H5z',
  phone: 'M16 1H8a2.5 2.5 0 0 0-2.5 2.5v17A2.5 2.5 0 0 0 8 23h8a2.5 2.5 0 0 0 2.5-2.5v-17A2.5 2.5 0 0 0 16 1zm-4 20.5a1.25 1.25 0 1 1 0-2.5 1.25 1.25 0 0 1 0 2.5zM16.5 18h-9V4h9z',
  speaker: 'M17 2H7a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2zm-5 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm0 16a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
};

/** An `<svg class="icon">` for `name` (play, pause, back15, forward15, chevronDown, check, plus,
 *  search, refresh, alert, external, upload, download, volume, volumeOff, moon, minus). The skip arrows
 *  (back15, forward15) show `seconds` inside (default 15). */
export function icon(name, seconds = 15) {
  if (name === 'back15' || name === 'forward15') {
    const svg = iconFrame(name);
    const arrow = svgNode('g', {});
    arrow.append(svgNode('path', { d: PATHS.skipArc, class: 'icon-stroke' }), svgNode('path', { d: PATHS.skipHead }));
    // The forward arrow is the back arrow mirrored.
    if (name === 'forward15') arrow.setAttribute('transform', 'matrix(-1 0 0 1 24 0)');
    const label = svgNode('text', { x: '12', y: '15.5', 'text-anchor': 'middle', class: 'icon-number' });
    label.textContent = String(seconds);
    svg.append(arrow, label);
    return svg;
  }
  return pathIcon(name, PATHS[name]);
}

/** An `<svg class="icon icon-NAME">` drawing the path `d` (24×24): every icon of one path, this
 *  set's and the few a single view keeps for itself (playlist-icons.js, download-button.js). */
export function pathIcon(name, d) {
  const svg = iconFrame(name);
  svg.append(svgNode('path', { d }));
  return svg;
}

function iconFrame(name) {
  return svgNode('svg', { viewBox: '0 0 24 24', class: `icon icon-${name}`, 'aria-hidden': 'true', focusable: 'false' });
}

/** An SVG element with its attributes. */
export function svgNode(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}
