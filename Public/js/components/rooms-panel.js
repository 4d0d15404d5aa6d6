// Snapcast's rooms (issue 17) in the Output dialog: every Snapcast client by its name, online or
// not, whether it plays Earshot (join / leave), its own volume and mute. From `state.rooms`, which
// the server keeps current — changes made in Snapweb or another controller show here at once.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';

/** The rooms section; `update(state)` redraws it from the state. */
export function roomsPanel() {
  const list = h('ul', { class: 'rooms-list', 'aria-label': 'Rooms' });
  const notice = h('p', { class: 'rooms-notice', role: 'status', hidden: true });
  const el = h('section', { class: 'rooms', hidden: true, 'aria-labelledby': 'rooms-title' },
    h('h3', { class: 'rooms-title', id: 'rooms-title' }, icon('speaker'), 'Rooms'),
    h('p', { class: 'rooms-hint' }, 'Speakers running Snapcast. Choose “Rooms” above to play there; tick the rooms that should play.'),
    notice, list);
  let shown = null;
  const dragging = new Set(); // rooms whose slider the listener holds: not redrawn under the finger

  function row(room) {
    const volume = h('input', {
      type: 'range', class: 'room-volume', min: '0', max: '100', step: '1', value: String(room.volume),
      'aria-label': `${room.name} volume`, disabled: room.online ? null : true,
    });
    volume.addEventListener('pointerdown', () => dragging.add(room.id));
    volume.addEventListener('change', () => { dragging.delete(room.id); socket.send(Cmd.roomVolume, { room: room.id, value: Number(volume.value) }); });
    volume.addEventListener('input', () => socket.send(Cmd.roomVolume, { room: room.id, value: Number(volume.value) }));
    const mute = h('button', {
      type: 'button', class: 'icon-button room-mute', 'aria-pressed': String(room.muted),
      'aria-label': room.muted ? `Unmute ${room.name}` : `Mute ${room.name}`,
      on: { click: () => socket.send(Cmd.roomMute, { room: room.id, on: !room.muted }) },
    }, icon(room.muted ? 'volumeOff' : 'volume'));
    const joined = h('input', { type: 'checkbox', class: 'room-joined', 'aria-label': `${room.name} plays Earshot` });
    joined.checked = room.joined;
    joined.addEventListener('change', () => socket.send(joined.checked ? Cmd.roomJoin : Cmd.roomLeave, { room: room.id }));
    return h('li', { class: 'room', dataset: { room: room.id, online: String(room.online), joined: String(room.joined) } },
      h('label', { class: 'room-head' }, joined,
        h('span', { class: 'room-name' }, room.name),
        h('span', { class: `room-status${room.online ? ' is-online' : ''}` }, room.online ? 'online' : 'offline')),
      h('div', { class: 'room-level' }, mute, volume,
        h('span', { class: 'room-percent' }, `${room.volume}%`)));
  }

  function update(state) {
    const rooms = Array.isArray(state?.rooms) ? state.rooms : [];
    const text = typeof state?.roomsNotice === 'string' ? state.roomsNotice : '';
    el.hidden = rooms.length === 0 && !text;
    notice.hidden = !text;
    notice.textContent = text;
    const identity = JSON.stringify(rooms);
    if (identity === shown) return;
    shown = identity;
    // A slider under the listener's finger keeps its place; the rest follow the state.
    list.replaceChildren(...rooms.map((room) => {
      const held = dragging.has(room.id) ? list.querySelector(`.room[data-room="${CSS.escape(room.id)}"]`) : null;
      return held ?? row(room);
    }));
  }

  return { el, update };
}

/** Where the host plays, for the mini-player: the joined rooms' names when it plays to the rooms. */
export function playingWhere(state) {
  if (state?.output !== 'snapcast') return null;
  const joined = (Array.isArray(state.rooms) ? state.rooms : []).filter((room) => room.joined && room.online).map((room) => room.name);
  return joined.length ? `in ${joined.join(', ')}` : 'in the rooms';
}
