// "Refresh all" in the library: the button, and a status line that follows the server's
// `refresh` messages ("Refreshing 3 of 12…", then "Up to date" or "2 feeds failed"), whoever
// started the refresh.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { refresh, refreshText } from '../core/refresh.js';
import { toast } from '../core/toast.js';

/** The button and the status line (same markup as the first paint). */
export function buildRefreshBar() {
  return [
    h('button', { type: 'button', class: 'button button-small refresh-all' },
      icon('refresh'), h('span', { class: 'button-label' }, 'Refresh all')),
    h('div', { class: 'refresh-status', role: 'status' },
      h('span', { class: 'refresh-text' }),
      h('progress', { class: 'refresh-progress', max: '1', value: '0', hidden: true, 'aria-hidden': 'true' })),
  ];
}

/** Wires the button and status line found under `root`; returns an unsubscribe function. */
export function wireRefreshBar(root) {
  const button = root.querySelector('.refresh-all');
  const label = button.querySelector('.button-label');
  const box = root.querySelector('.refresh-status');
  const text = box.querySelector('.refresh-text');
  const bar = box.querySelector('.refresh-progress');

  const render = (s) => {
    const running = Boolean(s?.running);
    // aria-disabled rather than disabled: the button keeps keyboard focus while it works.
    button.setAttribute('aria-disabled', String(running));
    button.classList.toggle('is-busy', running);
    label.textContent = running ? 'Refreshing…' : 'Refresh all';
    const words = refreshText(s, refresh.witnessed);
    text.textContent = words;
    box.dataset.state = !words ? 'idle' : running ? 'running' : s.failed > 0 ? 'failed' : 'done';
    bar.hidden = !running || s.total < 2;
    if (running) {
      bar.max = Math.max(s.total, 1);
      bar.value = Math.min(s.done, s.total);
    }
  };

  button.addEventListener('click', async () => {
    if (refresh.status?.running) return;
    button.setAttribute('aria-disabled', 'true');
    try {
      await refresh.start();
    } catch (error) {
      toast(error.message, 'error');
      render(refresh.status);
    }
  });
  render(refresh.status);
  return refresh.subscribe(render);
}
