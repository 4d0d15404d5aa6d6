// Reordering a list by dragging a row's grip. Pointer events are the one mechanism for mouse,
// pen and touch: HTML5 drag and drop fires nothing for touch, and a test driver cannot
// synthesize it. The row follows the pointer and the others slide aside (transforms only; the
// DOM is left alone until the drop, so pointer capture holds and a re-render cannot pull rows
// out from under the finger). Near the top or bottom of the screen the page scrolls. On release
// `onDrop(from, to)` is told the positions (not called when the row ends where it began);
// Escape or a cancelled pointer puts it back. Keyboard users have the rows' move buttons.

const EDGE = 72; // px from the top or bottom of the visible area where dragging scrolls
const MAX_SCROLL = 14; // px per frame at the very edge

/**
 * Makes the rows of `list` (its children) draggable by their `grip` elements.
 * `onStart()` runs when a drag begins, `onEnd(moved)` when it ends either way (before `onDrop`).
 */
export function dragReorder(list, { grip, onStart, onEnd, onDrop }) {
  let drag = null;

  const slots = (items) => items.map((el) => {
    const rect = el.getBoundingClientRect();
    return { top: rect.top + window.scrollY, height: rect.height };
  });

  // Where the dragged row would land: how many other rows have their middle above its middle.
  const target = () => {
    const { from, slotsAt, top } = drag;
    const middle = top + slotsAt[from].height / 2;
    let to = 0;
    slotsAt.forEach((slot, index) => {
      if (index !== from && slot.top + slot.height / 2 < middle) to += 1;
    });
    return to;
  };

  const layout = () => {
    const { items, from, slotsAt, grabY } = drag;
    drag.top = drag.clientY + window.scrollY - grabY;
    drag.to = target();
    const step = stepOf(slotsAt, from);
    items.forEach((el, index) => {
      let shift = 0;
      if (index === from) shift = drag.top - slotsAt[from].top;
      else if (drag.to > from && index > from && index <= drag.to) shift = -step;
      else if (drag.to < from && index >= drag.to && index < from) shift = step;
      el.style.transform = shift ? `translateY(${shift}px)` : '';
    });
  };

  // While the pointer rests near an edge, keep scrolling (and the row keeps following).
  const autoScroll = () => {
    if (!drag) return;
    const bottom = visibleBottom();
    let by = 0;
    if (drag.clientY < EDGE) by = -MAX_SCROLL * Math.min(1, (EDGE - drag.clientY) / EDGE);
    else if (drag.clientY > bottom - EDGE) by = MAX_SCROLL * Math.min(1, (drag.clientY - (bottom - EDGE)) / EDGE);
    if (by) {
      const before = window.scrollY;
      window.scrollBy(0, by);
      if (window.scrollY !== before) layout();
    }
    drag.frame = requestAnimationFrame(autoScroll);
  };

  const finish = (commit) => {
    if (!drag) return;
    const { items, item, from, to, handle, pointerId, frame } = drag;
    drag = null;
    cancelAnimationFrame(frame);
    window.removeEventListener('keydown', onKey, true);
    if (handle.hasPointerCapture(pointerId)) handle.releasePointerCapture(pointerId);
    // Transitions off first: the rows must not slide back before the DOM takes their order.
    list.classList.remove('is-reordering');
    item.classList.remove('is-dragging');
    for (const el of items) el.style.transform = '';
    const moved = commit && to !== from;
    if (moved) list.insertBefore(item, items.filter((el) => el !== item)[to] ?? null);
    onEnd?.(moved);
    if (moved) onDrop(from, to);
  };

  const onKey = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  };

  list.addEventListener('pointerdown', (event) => {
    const handle = event.target.closest(grip);
    if (drag || !handle || !list.contains(handle) || event.button !== 0) return;
    const item = [...list.children].find((el) => el.contains(handle));
    if (!item) return;
    event.preventDefault(); // no text selection, no focus change, no native drag
    const items = [...list.children];
    const slotsAt = slots(items);
    const from = items.indexOf(item);
    drag = {
      pointerId: event.pointerId, handle, item, items, from, to: from, slotsAt,
      grabY: event.clientY + window.scrollY - slotsAt[from].top, clientY: event.clientY, top: slotsAt[from].top, frame: 0,
    };
    handle.setPointerCapture(event.pointerId);
    list.classList.add('is-reordering');
    item.classList.add('is-dragging');
    window.addEventListener('keydown', onKey, true);
    onStart?.();
    layout();
    drag.frame = requestAnimationFrame(autoScroll);
  });

  list.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    event.preventDefault();
    drag.clientY = event.clientY;
    layout();
  });

  list.addEventListener('pointerup', (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    drag.clientY = event.clientY;
    layout();
    finish(true);
  });

  list.addEventListener('pointercancel', (event) => {
    if (drag && event.pointerId === drag.pointerId) finish(false);
  });

  list.addEventListener('lostpointercapture', (event) => {
    if (drag && event.pointerId === drag.pointerId) finish(false);
  });

  return {
    /** Whether a row is being dragged (the list must not be re-rendered meanwhile). */
    get active() { return drag !== null; },
    /** Puts a dragged row back (e.g. when the list changed elsewhere). */
    cancel() { finish(false); },
  };
}

/** The distance between one row and the next (its height plus the list's gap). */
function stepOf(slotsAt, index) {
  if (slotsAt.length < 2) return slotsAt[index]?.height ?? 0;
  const next = slotsAt[index + 1] ?? slotsAt[index - 1];
  const gap = Math.abs(next.top - slotsAt[index].top) - (next.top > slotsAt[index].top ? slotsAt[index].height : next.height);
  return slotsAt[index].height + Math.max(0, gap);
}

/** The bottom of the area not covered by the fixed mini-player. */
function visibleBottom() {
  const bar = document.getElementById('mini-player');
  const top = bar && !bar.hidden ? bar.getBoundingClientRect().top : window.innerHeight;
  return Math.min(window.innerHeight, top > 0 ? top : window.innerHeight);
}
