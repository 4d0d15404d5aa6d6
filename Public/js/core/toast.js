// Transient messages at the bottom of the screen (command errors, player errors).

const SHOW_MS = 5000;
const MAX_VISIBLE = 3;

/** Shows `message` for a few seconds. `kind`: 'error' | 'info'. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box || !message) return;
  const item = document.createElement('p');
  item.className = `toast toast-${kind}`;
  item.textContent = message;
  box.append(item);
  while (box.children.length > MAX_VISIBLE) box.firstElementChild.remove();
  setTimeout(() => {
    item.classList.add('is-leaving');
    setTimeout(() => item.remove(), 250);
  }, SHOW_MS);
}
