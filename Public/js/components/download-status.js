// The header's Downloads link: while anything is queued or downloading it shows the server's
// aggregate ("3 of 5 downloaded, 62 %") and a ring around its icon; otherwise just "Downloads".

import { h } from '../core/dom.js';
import { downloads } from '../core/downloads.js';
import { progressRing } from './download-button.js';

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
  const svg = progressRing('header-downloads-ring');
  box?.append(svg);
  return svg.querySelector('.ring-fill');
}
