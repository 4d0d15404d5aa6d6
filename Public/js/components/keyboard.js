// Keyboard shortcuts: space = play/pause, ←/→ = skip −15/+15, ? = the shortcuts dialog.
// Typing in a field or pressing a focused control keeps its usual meaning.

import { socket } from '../core/socket.js';

const SKIP = 15;

/** Installs the shortcuts and wires the `?` button to the dialog. */
export function initKeyboard(dialog, openButton) {
  openButton?.addEventListener('click', () => open(dialog));
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target) || dialog?.open) return;
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

function isTyping(target) {
  if (!(target instanceof Element)) return false;
  return target.isContentEditable || Boolean(target.closest('input, textarea, select'));
}

function isControl(target) {
  return target instanceof Element && Boolean(target.closest('button, a[href], summary, [role="button"]'));
}
