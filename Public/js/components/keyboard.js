// Keyboard shortcuts: space = play/pause, ←/→ = skip −15/+15, n/p = next/previous chapter,
// [/] = slower/faster, ↑/↓ = volume, m = mute, s = the sleep timer menu, / = the library search
// field, ? = the shortcuts dialog.
// The skip keys jump by the listener's intervals (`state.settings`, default −15/+30).
// Typing in a field or pressing a focused control keeps its usual meaning.

import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { skipIntervals } from './skip-intervals.js';
import { openSleepMenu } from './sleep-menu.js';
import { snapSpeed } from './speed-menu.js';
import { VOLUME_MAX } from './volume-control.js';
import { focusSearch } from './header-search.js';

const SPEED_STEP = 0.1;
const VOLUME_STEP = 5;

/** Installs the shortcuts and wires the `?` button to the dialog. */
export function initKeyboard(dialog, openButton) {
  openButton?.addEventListener('click', () => open(dialog));
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    // An open dialog (shortcuts, a confirm step) keeps every key for itself.
    if (isTyping(event.target) || dialog?.open || document.querySelector('dialog[open]')) return;
    // Arrows move within a radio group (the episode lists' filter chips): they are not shortcuts there.
    if (event.key.startsWith('Arrow') && event.target instanceof Element && event.target.closest('input[type="radio"]')) return;
    switch (event.key) {
      case ' ':
        if (isControl(event.target)) return; // space presses the focused button
        socket.send(Cmd.toggle);
        break;
      case 'ArrowLeft':
        socket.send(Cmd.skip, { by: -skipIntervals().back });
        break;
      case 'ArrowRight':
        socket.send(Cmd.skip, { by: skipIntervals().forward });
        break;
      case '[':
      case ']':
        changeSpeed(event.key === ']' ? SPEED_STEP : -SPEED_STEP);
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        changeVolume(event.key === 'ArrowUp' ? VOLUME_STEP : -VOLUME_STEP);
        break;
      case 'm':
        socket.send(Cmd.mute, { on: !player.state?.muted });
        break;
      case 's':
        openSleepMenu();
        break;
      case 'n': // next / previous chapter (the server answers an error toast when there is none)
        socket.send(Cmd.chapterNext);
        break;
      case 'p':
        socket.send(Cmd.chapterPrevious);
        break;
      case '/':
        focusSearch();
        break;
      case '?':
        open(dialog);
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}

// Steps from what the server said last, plus what this client asked for since (a held key sends
// faster than the state comes back).
let asked = null; // { speed?, volume?, at }

function changeSpeed(by) {
  const base = recent('speed') ?? Number(player.state?.rate ?? 1);
  const value = snapSpeed(base + by);
  remember('speed', value);
  socket.send(Cmd.rate, { value });
}

function changeVolume(by) {
  const base = recent('volume') ?? Number(player.state?.volume ?? 100);
  const value = Math.min(VOLUME_MAX, Math.max(0, Math.round(base + by)));
  remember('volume', value);
  socket.send(Cmd.volume, { value });
}

function recent(key) {
  return asked && key in asked && performance.now() - asked.at < 1000 ? asked[key] : null;
}

function remember(key, value) {
  asked = { [key]: value, at: performance.now() };
}

function open(dialog) {
  if (dialog && !dialog.open) dialog.showModal();
}

// Only fields that take text keep space and arrows for themselves. The scrubber (a range
// input) does not: after dragging it, space still plays/pauses and ←/→ still skip 15 s.
const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'password', 'number', 'tel',
  'date', 'time', 'datetime-local', 'month', 'week']);

function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.closest('textarea, select')) return true;
  const input = target.closest('input');
  return Boolean(input && TEXT_INPUTS.has(input.type));
}

function isControl(target) {
  return target instanceof Element &&
    Boolean(target.closest('button, a[href], summary, [role="button"], input[type="checkbox"], input[type="radio"]'));
}
