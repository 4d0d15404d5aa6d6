// A device removed on the Earshot machine loses its socket at once and every request of it is
// refused with 401 from then on. So whenever the socket drops, ask once whether this browser is
// still let in; when it is not, reload: the server then sends the pairing page.

import { socket } from '../core/socket.js';

export function initPairingWatch() {
  let asking = false;
  socket.on('status', async (status) => {
    if (status !== 'down' || asking) return;
    asking = true;
    try {
      const response = await fetch('/api/device', { headers: { Accept: 'application/json' } });
      if (response.status === 401) window.location.reload();
    } catch { /* the server is away: the socket's own reconnecting goes on */ }
    asking = false;
  });
}
