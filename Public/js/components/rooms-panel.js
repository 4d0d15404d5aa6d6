// Snapcast's rooms (issue 17) in the Output dialog: every Snapcast client by its name, online or
// not, whether it plays Earshot (join / leave), its own volume and mute. From `state.rooms`, which
// the server keeps current — changes made in Snapweb or another controller show here at once.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';

const send = (cmd, args) => socket.send(cmd, args);

/** The rooms section; `update(state)` redraws it from the state. */
export function roomsPanel() {
  const list = h('ul', { class: 'rooms-list', 'aria-label': 'Rooms' });
  const notice = h('p', { class: 'rooms-notice', role: 'status', hidden: true });
  const el = h('section', { class: 'rooms', hidden: true, 'aria-labelledby': 'rooms-title' },
    h('h3', { class: 'rooms-title', id: 'rooms-title' }, icon('speaker'), 'Rooms'),
    h('p', { class: 'rooms-hint' }, 'Speakers running Snapcast. Choose “Rooms” above to play there; tick the rooms that should play.'),
    notice, list);
  const rows = new Map(); // room id → its row, updated in place (focus and a held slider stay put)
  const dragging = new Set(); // rooms whose slider the listener holds: not moved under the finger

  function makeRow(id) {
    const volume = h('input', { type: 'range', class: 'room-volume', min: '0', max: '100', step: '1' });
    volume.addEventListener('pointerdown', () => dragging.add(id));
    volume.addEventListener('input', () => send(Cmd.roomVolume, { room: id, value: Number(volume.value) }));
    volume.addEventListener('change', () => { dragging.delete(id); send(Cmd.roomVolume, { room: id, value: Number(volume.value) }); });
    const mute = h('button', { type: 'button', class: 'icon-button room-mute',
      on: { click: () => send(Cmd.roomMute, { room: id, on: mute.getAttribute('aria-pressed') !== 'true' }) } });
    const joined = h('input', { type: 'checkbox', class: 'room-joined' });
    joined.addEventListener('change', () => send(joined.checked ? Cmd.roomJoin : Cmd.roomLeave, { room: id }));
    const name = h('span', { class: 'room-name' });
    const status = h('span', { class: 'room-status' });
    const percent = h('span', { class: 'room-percent' });
    const el = h('li', { class: 'room', dataset: { room: id } },
      h('label', { class: 'room-head' }, joined, name, status),
      h('div', { class: 'room-level' }, mute, volume, percent));
    return { el, volume, mute, joined, name, status, percent, muted: null };
  }

  function fill(row, room) {
    row.el.dataset.online = String(room.online);
    row.el.dataset.joined = String(room.joined);
    row.name.textContent = room.name;
    row.status.textContent = room.online ? 'online' : 'offline';
    row.status.classList.toggle('is-online', room.online);
    row.joined.checked = room.joined;
    row.joined.setAttribute('aria-label', `${room.name} plays Earshot`);
    row.volume.disabled = !room.online;
    row.volume.setAttribute('aria-label', `${room.name} volume`);
    if (!dragging.has(room.id)) row.volume.value = String(room.volume);
    row.percent.textContent = `${room.volume}%`;
    row.mute.setAttribute('aria-pressed', String(room.muted));
    row.mute.setAttribute('aria-label', room.muted ? `Unmute ${room.name}` : `Mute ${room.name}`);
    if (row.muted !== room.muted) {
      row.muted = room.muted;
      row.mute.replaceChildren(icon(room.muted ? 'volumeOff' : 'volume'));
    }
  }

  function update(state) {
    const rooms = Array.isArray(state?.rooms) ? state.rooms : [];
    const text = typeof state?.roomsNotice === 'string' ? state.roomsNotice : '';
    el.hidden = rooms.length === 0 && !text;
    notice.hidden = !text;
    notice.textContent = text;
    const seen = new Set();
    for (const room of rooms) {
      seen.add(room.id);
      let row = rows.get(room.id);
      if (!row) { row = makeRow(room.id); rows.set(room.id, row); }
      fill(row, room);
      list.append(row.el); // in the state's order (append moves a row already there)
    }
    for (const [id, row] of rows) {
      if (!seen.has(id)) { row.el.remove(); rows.delete(id); dragging.delete(id); }
    }
  }

  return { el, update };
}

/** Where the host plays, for the mini-player: the joined rooms' names when it plays to the rooms. */
export function playingWhere(state) {
  if (state?.output !== 'snapcast') return null;
  const joined = (Array.isArray(state.rooms) ? state.rooms : []).filter((room) => room.joined && room.online).map((room) => room.name);
  return joined.length ? `in ${joined.join(', ')}` : 'in the rooms';
}
