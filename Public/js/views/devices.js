// Devices view `/devices`: on the Earshot machine's own browser, pair a phone (a 6-digit code and
// a QR code, valid for 2 minutes) and list the paired devices with when each was last seen, each
// with Remove (its connections close at once). On a paired phone: what it is paired as, and Unpair.

import { h } from '../core/dom.js';
import { getJSON, postJSON, deleteJSON } from '../core/api.js';
import { ago, dateText } from '../core/format.js';
import { toast } from '../core/toast.js';
import { confirmDialog } from '../components/confirm.js';
import { socket } from '../core/socket.js';
import { Msg } from '../core/commands.js';
import { mountSyncSettings } from '../components/sync-settings.js';

export const devicesView = {
  mount(root) {
    const title = h('h1', { class: 'view-title', tabindex: '-1' }, 'Devices');
    const body = h('div', { class: 'devices' });
    root.replaceChildren(title, body);
    let stopped = false;
    let stop = () => {};
    getJSON('/api/device').then((who) => {
      if (stopped) return;
      if (who.requester === 'host') stop = mountHost(body);
      else mountDevice(body, who.device);
    }).catch((error) => toast(error.message, 'error'));
    return { title: 'Devices', destroy: () => { stopped = true; stop(); } };
  },
};

/** The host: the pairing panel and the device list, refetched when the server says they changed
 *  (`devices` messages: a phone paired, a device removed or seen, a code opened or closed) and when
 *  the socket reconnects; the countdown ticks here and refetches once the code runs out. */
function mountHost(body) {
  const panel = h('section', { class: 'devices-pairing', 'aria-label': 'Pair a phone' });
  const list = h('ul', { class: 'device-list', 'aria-label': 'Paired devices' });
  const empty = h('p', { class: 'empty' }, 'No devices are paired.');
  const sync = h('section', { class: 'sync-settings', 'aria-labelledby': 'sync-title' });
  body.replaceChildren(panel, h('h2', { class: 'section-title' }, 'Paired devices'), list, empty,
    h('h2', { class: 'section-title', id: 'sync-title' }, 'Podcast apps'), sync);
  const stopSync = mountSyncSettings(sync);

  let status = null; // the last GET /api/pairing
  let chosenHost = null; // the address the QR code names (null: the server's first choice)
  let announced = null; // the last paired device already announced
  let tick = null;

  const pairingPath = () => `/api/pairing${chosenHost ? `?host=${encodeURIComponent(chosenHost)}` : ''}`;

  async function refresh() {
    try {
      const [pairing, devices] = await Promise.all([getJSON(pairingPath()), getJSON('/api/devices')]);
      const last = pairing.lastPaired;
      if (last && announced !== null && last.device.id !== announced && last.secondsAgo < 30) {
        toast(`Paired “${last.device.name}”`);
      }
      announced = last?.device.id ?? 0;
      status = pairing;
      renderPanel();
      renderList(devices.devices);
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  async function openCode() {
    try {
      status = await postJSON(pairingPath());
      renderPanel();
      panel.querySelector('.devices-code')?.focus();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  async function closeCode() {
    try {
      status = await deleteJSON('/api/pairing');
      renderPanel();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  function renderPanel() {
    const open = status?.pairing;
    const pairButton = h('button', { type: 'button', class: 'button button-primary devices-open', on: { click: openCode } },
      open ? 'New code' : 'Pair a phone');
    const lanHint = status && !status.lan
      ? h('p', { class: 'devices-hint' }, 'Earshot listens on this machine only. To use a phone as a remote, start it with “earshot serve --lan” (or EARSHOT_LAN=1).')
      : null;
    if (!open) {
      panel.replaceChildren(...present(
        h('p', { class: 'devices-hint' }, 'Pair a phone or tablet on this network to use it as a remote. Only paired devices can see or control Earshot.'),
        lanHint,
        h('div', { class: 'devices-actions' }, pairButton)));
      return;
    }
    const qr = h('img', { class: 'devices-qr', alt: `QR code of the pairing link ${open.url ?? ''}`, width: 256, height: 256,
      src: `/api/pairing/qr.svg?${new URLSearchParams({ ...(chosenHost ? { host: chosenHost } : {}), c: open.code })}` });
    const names = open.urls.map((url) => new URL(url).hostname);
    const address = names.length > 1
      ? h('select', { class: 'devices-host', 'aria-label': 'Address in the QR code', on: { change: (event) => { chosenHost = event.target.value; refresh(); } } },
        ...open.urls.map((url, index) => h('option', { value: names[index], selected: names[index] === (chosenHost ?? names[0]) }, url)))
      : h('span', {}, open.urls[0] ?? '');
    panel.replaceChildren(...present(
      open.url ? qr : null,
      h('p', { class: 'devices-hint' }, 'On the phone, scan the code, or open this address and type the code:'),
      h('p', { class: 'devices-url' }, address),
      h('p', { class: 'devices-code', tabindex: '-1', 'aria-label': `Pairing code ${open.code.split('').join(' ')}` },
        `${open.code.slice(0, 3)} ${open.code.slice(3)}`),
      h('p', { class: 'devices-countdown', 'aria-live': 'off' }, countdown(open)),
      lanHint,
      h('div', { class: 'devices-actions' }, pairButton,
        h('button', { type: 'button', class: 'button devices-cancel', on: { click: closeCode } }, 'Cancel'))));
  }

  function countdown(open) {
    const left = Math.max(0, Math.round(open.expires - Date.now() / 1000));
    return left > 0 ? `Valid for ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'Expired';
  }

  function renderList(devices) {
    list.replaceChildren(...devices.map((device) => h('li', { class: 'device-row', dataset: { deviceId: device.id } },
      h('div', { class: 'device-text' },
        h('p', { class: 'device-name' }, device.name),
        h('p', { class: 'device-seen' }, `Last seen ${ago(device.lastSeen)} · paired ${dateText(device.created)}`)),
      h('button', { type: 'button', class: 'button button-small device-remove', 'aria-label': `Remove ${device.name}`,
        on: { click: () => remove(device) } }, 'Remove'))));
    list.hidden = devices.length === 0;
    empty.hidden = devices.length !== 0;
  }

  async function remove(device) {
    const sure = await confirmDialog({ title: `Remove “${device.name}”?`,
      text: 'It is disconnected at once and must pair again to control Earshot.', confirm: 'Remove' });
    if (!sure) return;
    try {
      await deleteJSON(`/api/devices/${device.id}`);
      toast(`Removed “${device.name}”`);
      refresh();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  refresh();
  const stops = [
    socket.on(Msg.devices, refresh),
    socket.on('status', (state) => { if (state === 'open') refresh(); }),
  ];
  tick = setInterval(() => {
    const line = panel.querySelector('.devices-countdown');
    if (!line || !status?.pairing) return;
    line.textContent = countdown(status.pairing);
    // Run out: the server closes it on its own; ask once for what stands now.
    if (status.pairing.expires <= Date.now() / 1000) { status = { ...status, pairing: null }; refresh(); }
  }, 1000);
  return () => { clearInterval(tick); stopSync(); for (const stop of stops) stop(); };
}

/** The nodes given, without the absent ones (replaceChildren would show `null` as text). */
function present(...nodes) {
  return nodes.filter((node) => node !== null && node !== undefined);
}

/** A paired device: what it is paired as; it may unpair itself. */
function mountDevice(body, device) {
  const unpair = h('button', { type: 'button', class: 'button devices-unpair', on: { click: async () => {
    const sure = await confirmDialog({ title: 'Unpair this device?', text: 'It will need a new code from the Earshot machine to control it again.', confirm: 'Unpair' });
    if (!sure) return;
    try {
      await deleteJSON('/api/device');
      window.location.replace('/');
    } catch (error) {
      toast(error.message, 'error');
    }
  } } }, 'Unpair this device');
  body.replaceChildren(
    h('p', { class: 'devices-self' }, `This device is paired as “${device?.name ?? 'a remote'}”.`),
    h('p', { class: 'devices-hint' }, 'Only the Earshot machine’s own browser can pair or remove other devices.'),
    h('div', { class: 'devices-actions' }, unpair));
}
