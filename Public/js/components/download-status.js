// The header's Downloads link: while anything is queued or downloading it shows the server's
// aggregate ("3 of 5 downloaded, 62 %") and a ring around its icon; otherwise just "Downloads".

import { h } from '../core/dom.js';
import { downloads } from '../core/downloads.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Follows the downloads store on the header link `link` (`.header-downloads`). */
export function initDownloadStatus(link) {
  if (!link) return;
  const iconBox = link.querySelector('.header-downloads-icon');
  const progress = link.querySelector('.header-downloads-progress') ?? link.appendChild(h('span', { class: 'header-downloads-progress' }));
  const arc = ring(iconBox);
  const paint = ({ summary }) => {
    const running = Boolean(summary?.running);
    link.classList.toggle('is-running', running);
    progress.hidden = !running;
    progress.textContent = running ? summary.label : '';
    arc.setAttribute('stroke-dashoffset', String(100 - Math.max(0, Math.min(1, summary?.fraction ?? 0)) * 100));
    link.setAttribute('aria-label', running ? `Downloads: ${summary.label}` : 'Downloads');
  };
  downloads.subscribe(paint);
  paint(downloads);
}

/** A ring around the header icon; returns its arc. */
function ring(box) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'icon header-downloads-ring');
  svg.setAttribute('viewBox', '0 0 36 36');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const track = document.createElementNS(SVG, 'circle');
  const arc = document.createElementNS(SVG, 'circle');
  for (const [circle, kind] of [[track, 'track'], [arc, 'fill']]) {
    circle.setAttribute('class', `ring-${kind}`);
    circle.setAttribute('cx', '18');
    circle.setAttribute('cy', '18');
    circle.setAttribute('r', '16');
  }
  arc.setAttribute('pathLength', '100');
  arc.setAttribute('stroke-dasharray', '100');
  arc.setAttribute('stroke-dashoffset', '100');
  arc.setAttribute('transform', 'rotate(-90 18 18)');
  svg.append(track, arc);
  box?.append(svg);
  return arc;
}
