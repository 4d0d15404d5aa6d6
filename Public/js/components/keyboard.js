// Keyboard shortcuts: space = play/pause, ←/→ = skip −15/+15, ? = the shortcuts dialog.
// Typing in a field or pressing a focused control keeps its usual meaning.

import { socket } from '../core/socket.js';

const SKIP = 15;

/** Installs the shortcuts and wires the `?` button to the dialog. */
export function initKeyboard(dialog, openButton) {
  openButton?.addEventListener('click', () => open(dialog));
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    // An open dialog (shortcuts, a confirm step) keeps every key for itself.
    if (isTyping(event.target) || dialog?.open || document.querySelector('dialog[open]')) return;
    switch (event.key) {
      case ' ':
        if (isControl(event.target)) return; // space presses the focused button
        socket.send('toggle');
        break;
      case 'ArrowLeft':
        socket.send('skip', { by: -SKIP });
        break;
      case 'ArrowRight':
        socket.send('skip', { by: SKIP });
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
