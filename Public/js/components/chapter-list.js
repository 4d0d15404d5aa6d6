// The episode page's chapters (Podlove Simple Chapters from the feed): start time and title.
// A tap seeks when this episode is the one loaded, else plays it and then seeks (the server
// handles commands from one client in order, and holds a seek until the file is open).
// While this episode plays, the current chapter is marked.

import { h, absoluteUrl } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { clock } from '../core/format.js';
import { socket } from '../core/socket.js';
import { player } from '../core/player-state.js';

/** Builds the list for `episode` (an API Episode with details); null when it has no chapters.
 *  Returns { el, destroy }. */
export function chapterList(episode) {
  const chapters = (episode.details?.chapters ?? [])
    .filter((c) => c && Number.isFinite(Number(c.start)))
    .map((c) => ({ start: Math.max(0, Number(c.start)), title: typeof c.title === 'string' ? c.title : '', href: c.href }))
    .sort((a, b) => a.start - b.start);
  if (!chapters.length) return null;

  const items = chapters.map((chapter, index) => {
    const link = absoluteUrl(chapter.href);
    return h('li', { class: 'chapter' },
      h('button', {
        type: 'button', class: 'chapter-button', dataset: { start: chapter.start, index },
        on: { click: () => playChapter(episode.id, chapter.start) },
      },
      h('span', { class: 'chapter-time' }, clock(chapter.start)),
      h('span', { class: 'chapter-title' }, chapter.title || `Chapter ${index + 1}`)),
      link ? h('a', { class: 'chapter-link', href: link, target: '_blank', rel: 'noopener noreferrer',
        'aria-label': `Link for ${chapter.title || `chapter ${index + 1}`}` }, icon('external')) : null);
  });
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
    socket.send('seek', { to: start });
    if (player.paused) socket.send('resume');
  } else {
    socket.send('play', { episode: id });
    socket.send('seek', { to: start });
  }
}
