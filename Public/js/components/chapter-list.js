// Chapter lists. The episode page's (`chapterList`: Podlove Simple Chapters from the feed): a
// tap seeks when this episode is the one loaded, else plays it and then seeks (the server
// handles commands from one client in order, and holds a seek until the file is open); while
// this episode plays, the current chapter is marked. The full player's (`playerChapters`): the
// server's merged list (`state.chapters`, from the JSON file, the feed or the audio file), with
// images, the current one (`state.chapter`) highlighted; a tap sends `chapter {index}`.

import { h, absoluteUrl, safeUrl } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { clock } from '../core/format.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';

/** Builds the list for `episode` (an API Episode with details); null when it has no chapters.
 *  Returns { el, destroy }. */
export function chapterList(episode) {
  const chapters = (episode.details?.chapters ?? [])
    .filter((c) => c && Number.isFinite(Number(c.start)))
    .map((c) => ({ start: Math.max(0, Number(c.start)), title: typeof c.title === 'string' ? c.title : '', href: c.href }))
    .sort((a, b) => a.start - b.start);
  if (!chapters.length) return null;

  const items = chapters.map((chapter, index) =>
    chapterRow({ ...chapter, url: chapter.href }, index, () => playChapter(episode.id, chapter.start)));
  const el = h('section', { class: 'chapters', 'aria-labelledby': 'chapters-title' },
    h('h2', { id: 'chapters-title', class: 'section-title' }, 'Chapters'),
    h('ol', { class: 'chapter-list' }, items));

  let marked = -2;
  const mark = () => {
    let index = -1;
    if (player.episode?.id === episode.id) {
      const position = player.position();
      for (let i = 0; i < chapters.length && chapters[i].start <= position + 0.25; i += 1) index = i;
    }
    if (index === marked) return;
    marked = index;
    items.forEach((item, i) => {
      item.classList.toggle('is-current', i === index);
      const button = item.querySelector('.chapter-button');
      if (i === index) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    });
  };
  const unsubscribe = player.subscribe(mark);
  mark();
  return { el, destroy: unsubscribe };
}

/** Seeks to `start` in episode `id`, loading it first when another one (or none) is loaded. */
export function playChapter(id, start) {
  if (player.episode?.id === id) {
    socket.send(Cmd.seek, { to: start });
    if (player.paused) socket.send(Cmd.resume);
  } else {
    socket.send(Cmd.play, { episode: id });
    socket.send(Cmd.seek, { to: start });
  }
}

/** One row: start time and title as a button (`onClick`), an image when `withImage` (a blank
 *  square when this chapter has none, so titles line up), and the chapter's link. */
function chapterRow(chapter, index, onClick, withImage = false) {
  const link = absoluteUrl(chapter.url);
  const title = chapter.title || `Chapter ${index + 1}`;
  const src = withImage ? safeUrl(chapter.img) : null;
  const thumb = withImage
    ? (src ? h('img', { class: 'chapter-image', src, alt: '', width: 48, height: 48, loading: 'lazy', decoding: 'async' })
      : h('span', { class: 'chapter-image chapter-image-none', 'aria-hidden': 'true' }))
    : null;
  return h('li', { class: 'chapter' },
    h('button', { type: 'button', class: 'chapter-button', dataset: { start: chapter.start, index }, on: { click: onClick } },
      thumb,
      h('span', { class: 'chapter-time' }, clock(chapter.start)),
      h('span', { class: 'chapter-title' }, title)),
    link ? h('a', { class: 'chapter-link', href: link, target: '_blank', rel: 'noopener noreferrer',
      'aria-label': `Link for ${title}` }, icon('external')) : null);
}

/** The full player's list, drawn from the server's state. Returns { el, update(state) }: call
 *  `update` on every `state` message (it rebuilds only when the list changes). */
export function playerChapters() {
  const list = h('ol', { class: 'chapter-list' });
  const el = h('section', { class: 'chapters player-chapters', 'aria-labelledby': 'player-chapters-title', hidden: true },
    h('h2', { id: 'player-chapters-title', class: 'section-title' }, 'Chapters'), list);
  let shownKey = null;
  let items = [];
  let marked = -2;

  const update = (state) => {
    const chapters = state?.episode && Array.isArray(state.chapters)
      ? state.chapters.filter((c) => c && Number.isFinite(Number(c.start)))
      : [];
    const key = JSON.stringify([state?.episode?.id, chapters]);
    if (key !== shownKey) {
      shownKey = key;
      marked = -2;
      const withImages = chapters.some((c) => safeUrl(c.img));
      items = chapters.map((chapter, index) => chapterRow(
        { title: typeof chapter.title === 'string' ? chapter.title : '', start: Number(chapter.start), img: chapter.img, url: chapter.url },
        index, () => jumpTo(index), withImages));
      list.replaceChildren(...items);
      el.hidden = items.length === 0;
    }
    const current = Number.isInteger(state?.chapter) ? state.chapter : -1;
    if (current === marked) return;
    marked = current;
    items.forEach((item, i) => {
      item.classList.toggle('is-current', i === current);
      const button = item.querySelector('.chapter-button');
      if (i === current) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    });
    keepVisible(list, items[current]);
  };
  return { el, update };
}

/** Seeks to chapter `index` of the playing episode, and plays from there when paused. */
function jumpTo(index) {
  socket.send(Cmd.chapter, { index });
  if (player.paused) socket.send(Cmd.resume);
}

/** Scrolls the list (not the page) so that `item` shows, when the list scrolls at all (the
 *  list is positioned, so `offsetTop` counts from its top). */
function keepVisible(list, item) {
  if (!item || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
