// The download button on every episode row and on the episode page: a ring fills as the bytes
// arrive. One tap downloads (or resumes, or retries); while it runs a tap stops it (the partial file
// is kept: the next tap continues); once done, a tap offers to delete the file. Every button on the
// page follows the downloads store, so rows drawn at any time show the live state.

import { h } from '../core/dom.js';
import { icon, pathIcon, svgNode } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { downloads, statusText } from '../core/downloads.js';
import { confirmDialog } from './confirm.js';

/** The icon inside the ring for each state (none: not downloaded). */
const ICONS = { none: 'download', queued: 'stop', downloading: 'stop', paused: 'download', failed: 'alert', done: 'check' };
/** The episode page's words. */
const LABELS = { none: 'Download', queued: 'Waiting…', paused: 'Resume download', failed: 'Retry download', done: 'Downloaded' };

/** A round download button (`labelled`: a pill with words, for the episode page). */
export function downloadButton(episode, { labelled = false, className = '' } = {}) {
  const button = h('button', {
    type: 'button',
    class: `download-button${labelled ? ' download-button-labelled button button-small' : ''}${className ? ` ${className}` : ''}`,
    dataset: { download: 'toggle', episodeId: episode.id, title: episode.title ?? '' },
  }, progressRing('download-ring'), h('span', { class: 'download-icon' }));
  if (labelled) button.append(h('span', { class: 'button-label download-label' }));
  paint(button, downloads.get(episode.id));
  return button;
}

/** Repaints every download button on the page at each change, and handles their taps. */
export function initDownloadButtons() {
  downloads.subscribe(() => {
    for (const button of document.querySelectorAll('button[data-download]')) paint(button, downloads.get(button.dataset.episodeId));
  });
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button[data-download]');
    if (!button) return;
    event.preventDefault();
    tap(button);
  });
}

async function tap(button) {
  const episode = Number(button.dataset.episodeId);
  const item = downloads.get(episode);
  const title = button.dataset.title || 'this episode';
  switch (item?.state) {
    case 'queued':
    case 'downloading':
      socket.send(Cmd.downloadCancel, { episode });
      break;
    case 'done':
      if (await confirmDialog({
        title: 'Delete the download?',
        text: `“${title}” will play from the web again until you download it again.`,
        confirm: 'Delete',
      })) socket.send(Cmd.downloadDelete, { episode });
      break;
    default: // not downloaded, paused, failed
      socket.send(Cmd.download, { episode });
  }
}

/** Shows `item` (undefined: not downloaded) on `button`. */
function paint(button, item) {
  const state = item?.state ?? 'none';
  const fraction = state === 'done' ? 1 : Math.max(0, Math.min(1, item?.fraction ?? 0));
  button.dataset.state = state;
  button.querySelector('.ring-fill')?.setAttribute('stroke-dashoffset', String(100 - fraction * 100));
  const name = ICONS[state];
  const holder = button.querySelector('.download-icon');
  if (holder && holder.dataset.icon !== name) {
    holder.dataset.icon = name;
    holder.replaceChildren(name === 'stop' ? downloadGlyph('stop') : icon(name));
  }
  const title = button.dataset.title || 'episode';
  const status = statusText(item);
  const words = {
    none: `Download ${title}`,
    queued: `Stop downloading ${title} (${status})`,
    downloading: `Stop downloading ${title} (${status})`,
    paused: `Resume downloading ${title} (${status})`,
    failed: `Retry downloading ${title} (failed: ${item?.error ?? 'unknown error'})`,
    done: `Downloaded: ${title}. Delete the file`,
  }[state];
  button.setAttribute('aria-label', words);
  button.title = state === 'failed' ? `Download failed: ${item?.error ?? ''}` : words;
  const label = button.querySelector('.download-label');
  if (label) label.textContent = state === 'downloading' ? `Downloading ${Math.floor(fraction * 100)} %` : LABELS[state];
}

/** The progress ring (`className` says whose): a faint track and an arc, `.ring-fill`, drawn to the
 *  fraction by its stroke-dashoffset on a 100-long path. The header's aggregate uses it too. */
export function progressRing(className) {
  const circle = (kind, extra = {}) => svgNode('circle', { class: `ring-${kind}`, cx: '18', cy: '18', r: '16', ...extra });
  // .icon: the page's own SVG, not content
  const svg = svgNode('svg', { class: `icon ${className}`, viewBox: '0 0 36 36', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(circle('track'), circle('fill', { pathLength: '100', 'stroke-dasharray': '100', 'stroke-dashoffset': '100',
                                               transform: 'rotate(-90 18 18)' }));
  return svg;
}

/** Icons only downloads use (the shared set in core/icons.js has the rest). */
const GLYPHS = {
  stop: 'M8 8h8v8H8z',
  trash: 'M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z',
};

/** An `<svg class="icon icon-stop|icon-trash">`. */
export function downloadGlyph(name) {
  return pathIcon(name, GLYPHS[name]);
}
