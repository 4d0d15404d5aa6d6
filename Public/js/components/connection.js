// The "Reconnecting…" indicator, visible while the socket is down.

import { socket } from '../core/socket.js';

/** Shows `el` while the socket is down. */
export function initConnectionIndicator(el) {
  if (!el) return;
  socket.on('status', (status) => {
    el.hidden = status !== 'down';
    document.body.classList.toggle('is-offline', status === 'down');
  });
}
