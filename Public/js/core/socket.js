// The one WebSocket to the server: reconnects by itself with exponential backoff,
// keeps the connection alive, and numbers commands so replies can be matched.

import { Cmd, Msg } from './commands.js';

const MIN_DELAY = 500;
const MAX_DELAY = 10_000;
const KEEPALIVE_EVERY = 20_000; // ping when the line has been quiet this long
const DEAD_AFTER = 10_000; // no reply to a ping within this: the connection is dead

const handlers = new Map(); // message type → Set of functions
const pending = new Map(); // command id → command name
let ws = null;
let nextId = 1;
let attempt = 0;
let reconnectTimer = null;
let keepAliveTimer = null;
let lastHeard = 0;
let pingSentAt = 0;
let status = 'connecting'; // 'connecting' | 'open' | 'down'

/** The socket: `on(type, fn)` for server messages (`Msg.state`, `Msg.time`, `Msg.library`, …),
 *  `status` changes ('open' | 'down' | 'connecting'), `commandError` ({message, cmd, id}) and
 *  `commandAck` ({cmd, id}). */
export const socket = {
  get status() { return status; },

  on(type, fn) {
    if (!handlers.has(type)) handlers.set(type, new Set());
    handlers.get(type).add(fn);
    return () => handlers.get(type).delete(fn);
  },

  connect,

  /** Sends `{"id", "cmd", ...args}` (`cmd`: a `Cmd` value, or any wire name as a string);
   *  returns the id, or null when not connected. */
  send(cmd, args = {}) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      emit('commandError', { message: 'Not connected to Earshot — reconnecting…', cmd });
      return null;
    }
    const id = nextId++;
    pending.set(id, cmd);
    ws.send(JSON.stringify({ id, cmd, ...args }));
    return id;
  },
};

function connect() {
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
  clearTimeout(reconnectTimer);
  reconnectTimer = null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socketHere = new WebSocket(`${scheme}//${location.host}/ws`);
  ws = socketHere;
  socketHere.addEventListener('open', () => {
    attempt = 0;
    lastHeard = Date.now();
    setStatus('open');
    startKeepAlive();
  });
  socketHere.addEventListener('message', (event) => {
    lastHeard = Date.now();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message && typeof message.type === 'string') receive(message);
  });
  socketHere.addEventListener('close', () => lost(socketHere));
  // An error is always followed by close; nothing to do here.
}

/** Forgets `dead` (once) and schedules the next attempt. */
function lost(dead) {
  if (ws !== dead) return;
  ws = null;
  pending.clear();
  stopKeepAlive();
  setStatus('down');
  scheduleReconnect();
}

function receive(message) {
  if (message.type === Msg.ack || message.type === Msg.error) {
    const cmd = pending.get(message.id);
    pending.delete(message.id);
    // A ping's reply only proves the line is alive (servers without `ping` answer an error).
    if (cmd === Cmd.ping) return;
    if (message.type === Msg.error) emit('commandError', { message: message.message || 'Command failed', cmd, id: message.id });
    else emit('commandAck', { cmd, id: message.id });
    return;
  }
  emit(message.type, message);
}

function scheduleReconnect() {
  const delay = Math.min(MAX_DELAY, MIN_DELAY * 2 ** attempt);
  attempt += 1;
  reconnectTimer = setTimeout(connect, delay);
}

function startKeepAlive() {
  stopKeepAlive();
  keepAliveTimer = setInterval(() => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const awaitingReply = pingSentAt > lastHeard;
    if (awaitingReply && now - pingSentAt > DEAD_AFTER) {
      // Half-open connection: a close handshake may never finish, so drop it now.
      const dead = ws;
      lost(dead);
      dead.close();
    } else if (!awaitingReply && now - lastHeard >= KEEPALIVE_EVERY) {
      pingSentAt = now;
      socket.send(Cmd.ping);
    }
  }, DEAD_AFTER / 2);
}

function stopKeepAlive() {
  clearInterval(keepAliveTimer);
  keepAliveTimer = null;
}

function setStatus(next) {
  if (status === next) return;
  status = next;
  emit('status', next);
}

function emit(type, payload) {
  for (const fn of handlers.get(type) ?? []) {
    try {
      fn(payload);
    } catch (error) {
      console.error(error);
    }
  }
}

// Come back at once when the network or the tab returns, instead of waiting out the backoff.
for (const [target, type] of [[window, 'online'], [document, 'visibilitychange']]) {
  target.addEventListener(type, () => {
    if (document.visibilityState === 'visible' && status === 'down') {
      attempt = 0;
      connect();
    }
  });
}
