/**
 * The WebSocket vocabulary the web client speaks: every command the server accepts (`Cmd`,
 * client → server `{"cmd": …}`) and every message type the client handles (`Msg`, server →
 * client `{"type": …}`). It must match docs/protocol.md (the command table under
 * "WebSocket `/ws`" and the "Server → client" list): add a command there and here together.
 *
 * Kept machine-readable on purpose: inside each `Object.freeze({ … })` block every line is
 * `key: 'wire.name',` — the key is the wire name in camelCase — so a test can read the wire
 * names with a regex (the `Cmd` block ends at the first `});`, the `Msg` block follows it).
 */

/** Command names, in the order docs/protocol.md lists them. */
export const Cmd = Object.freeze({
  play: 'play',
  pause: 'pause',
  resume: 'resume',
  toggle: 'toggle',
  stop: 'stop',
  seek: 'seek',
  skip: 'skip',
  rate: 'rate',
  volume: 'volume',
  mute: 'mute',
  podcastSpeed: 'podcast.speed',
  podcastSettings: 'podcast.settings',
  skipUndo: 'skip.undo',
  sleep: 'sleep',
  sleepExtend: 'sleep.extend',
  sleepCancel: 'sleep.cancel',
  alarmSet: 'alarm.set',
  alarmCancel: 'alarm.cancel',
  queueAdd: 'queue.add',
  queueRemove: 'queue.remove',
  queueMove: 'queue.move',
  queueClear: 'queue.clear',
  next: 'next',
  previous: 'previous',
  shuffle: 'shuffle',
  repeat: 'repeat',
  chapter: 'chapter',
  chapterNext: 'chapter.next',
  chapterPrevious: 'chapter.previous',
  playlistCreate: 'playlist.create',
  playlistRename: 'playlist.rename',
  playlistDelete: 'playlist.delete',
  playlistAdd: 'playlist.add',
  playlistRemove: 'playlist.remove',
  playlistMove: 'playlist.move',
  playlistPlay: 'playlist.play',
  mark: 'mark',
  settings: 'settings',
  download: 'download',
  downloadCancel: 'download.cancel',
  downloadRetry: 'download.retry',
  downloadDelete: 'download.delete',
  downloadSettings: 'download.settings',
  downloadAuto: 'download.auto',
  inboxDismiss: 'inbox.dismiss',
  inboxClear: 'inbox.clear',
  output: 'output',
  handoffTake: 'handoff.take',
  handoffPosition: 'handoff.position',
  handoffGive: 'handoff.give',
  roomVolume: 'room.volume',
  roomMute: 'room.mute',
  roomJoin: 'room.join',
  roomLeave: 'room.leave',
  ping: 'ping',
});

/** Server message types the client handles (`message.type`; `socket.on(Msg.x, …)`). */
export const Msg = Object.freeze({
  state: 'state',
  time: 'time',
  ack: 'ack',
  error: 'error',
  library: 'library',
  downloads: 'downloads',
  refresh: 'refresh',
  playlists: 'playlists',
  devices: 'devices',
});
