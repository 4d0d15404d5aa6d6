// An episode list with its filter and sort controls, as the library and a podcast's page show
// it: the choice comes from the URL or what this view last used (core/episode-query.js) and is
// kept there on every change; the list pages and windows itself (components/paged-list.js) and
// fetches itself again at once when the server says the library changed (and after a reconnect).

import { getJSON } from '../core/api.js';
import { socket } from '../core/socket.js';
import { Msg } from '../core/commands.js';
import { readChoice, keepChoice, episodesPath, emptyText } from '../core/episode-query.js';
import { episodeRow } from './episode-row.js';
import { listControls } from './list-controls.js';
import { pagedList } from './paged-list.js';

/**
 * `{controls, list, start(), refresh(), destroy()}` for `view` ('library' or 'podcast'):
 * `controls` and `list` are elements to place; `start()` loads the first page (a promise);
 * `refresh()` refetches, keeping the scroll position (it does so itself on `library` messages).
 * `podcast`: one podcast's id; `allEmpty`: what an empty unfiltered list says; `onFirstPage`
 * runs once, just after the first page is on screen.
 */
export function episodeBrowser({ view, podcast = null, allEmpty, label = 'Episodes', onFirstPage = () => {} }) {
  let choice = readChoice(view);
  keepChoice(view, choice); // a remembered choice shows in the URL too
  let first = true;

  const list = pagedList({
    load: (offset, limit, signal, after) => getJSON(episodesPath(choice, { podcast, after, offset, limit }), { signal }),
    row: episodeRow,
    emptyText: () => emptyText(choice.filter, allEmpty),
    onPage: () => {
      if (!first) return;
      first = false;
      onFirstPage();
    },
    label,
    memory: () => `${view}:${podcast ?? ''}:${choice.filter}:${choice.sort}`,
  });

  const controls = listControls(choice, (next) => {
    choice = next;
    keepChoice(view, choice);
    // Changing the list while scrolled down it: back up to the controls, over the old list.
    const header = document.querySelector('.app-header')?.getBoundingClientRect().bottom ?? 0;
    if (controls.el.getBoundingClientRect().top < header) controls.el.scrollIntoView({ block: 'start' });
    list.reset();
  }, { label: label.toLowerCase() });

  const stopLibrary = socket.on(Msg.library, () => list.refresh());
  let wasDown = false;
  const stopStatus = socket.on('status', (status) => {
    if (status === 'open' && wasDown) list.refresh(); // `library` messages sent meanwhile are lost
    wasDown = status !== 'open';
  });

  return {
    controls: controls.el,
    list: list.el,
    start: () => list.reset({ restore: true }), // Back: as long as it was
    refresh: () => list.refresh(),
    destroy: () => {
      stopLibrary();
      stopStatus();
      list.destroy();
    },
  };
}
