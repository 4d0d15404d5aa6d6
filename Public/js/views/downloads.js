// Downloads view `/downloads`: what is downloading or waiting, paused, failed (with the reason)
// and done, each with its actions (stop, resume, retry, delete), then the settings: how many at
// once, deleting played downloads after some days, and auto-downloading each podcast's newest
// episodes. Rows are updated in place as `downloads` messages arrive, so a button keeps its focus.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { library } from '../core/library.js';
import { downloads, statusText } from '../core/downloads.js';
import { dateText } from '../core/format.js';
import { confirmDialog } from '../components/confirm.js';
import { downloadGlyph } from '../components/download-button.js';

const SECTIONS = [
  { key: 'running', title: 'Downloading', states: ['downloading', 'queued'] },
  { key: 'paused', title: 'Paused', states: ['paused'] },
  { key: 'failed', title: 'Failed', states: ['failed'] },
  { key: 'done', title: 'Downloaded', states: ['done'] },
];
/** Each state's buttons: [command (a `Cmd` value, kept in data-downloads-cmd), class suffix
 *  (`download-cancel`, …), label, icon]; every row also gets DELETE. */
const ACTIONS = {
  downloading: [[Cmd.downloadCancel, 'cancel', 'Stop', 'stop']],
  queued: [[Cmd.downloadCancel, 'cancel', 'Stop', 'stop']],
  paused: [[Cmd.download, 'download', 'Resume', 'download']],
  failed: [[Cmd.downloadRetry, 'retry', 'Retry', 'refresh']],
  done: [],
};
const DELETE = [Cmd.downloadDelete, 'delete', 'Delete', 'trash'];
const DAYS = [null, 1, 3, 7, 14, 30];
const NEWEST = [null, 1, 2, 3, 5, 10];

export const downloadsView = {
  mount(root) {
    const summary = h('p', { class: 'downloads-summary', role: 'status' });
    const empty = h('p', { class: 'empty downloads-empty' }, 'Nothing downloaded yet. Use the download button on any episode to keep it for offline listening.');
    const sections = SECTIONS.map((section) => {
      const list = h('ol', { class: 'download-list', 'aria-labelledby': `downloads-${section.key}` });
      const el = h('section', { class: `section downloads-section downloads-${section.key}` },
        h('h2', { class: 'section-title', id: `downloads-${section.key}` }, section.title), list);
      return { ...section, el, list };
    });
    const settings = settingsSection();
    root.replaceChildren(h('h1', { class: 'view-title', tabindex: '-1' }, 'Downloads'), summary, empty,
      ...sections.map((s) => s.el), settings.el);

    const rows = new Map(); // episode id → row element
    const render = () => {
      const { items, summary: total } = downloads;
      summary.hidden = !total.running;
      summary.textContent = total.running ? total.label : '';
      empty.hidden = items.length > 0;
      const seen = new Set();
      for (const section of sections) {
        // Running first, then waiting; the rest newest first.
        const mine = items.filter((item) => section.states.includes(item.state));
        if (section.key === 'running') mine.sort((a, b) => (a.state === b.state ? 0 : a.state === 'downloading' ? -1 : 1));
        else mine.reverse();
        const elements = mine.map((item) => {
          seen.add(item.episode);
          let row = rows.get(item.episode);
          if (!row || row.dataset.state !== item.state) {
            row = buildRow(item);
            rows.set(item.episode, row);
          }
          updateRow(row, item);
          return row;
        });
        const current = [...section.list.children];
        if (current.length !== elements.length || current.some((el, i) => el !== elements[i])) section.list.replaceChildren(...elements);
        section.el.hidden = elements.length === 0;
      }
      for (const id of [...rows.keys()]) if (!seen.has(id)) rows.delete(id);
      settings.update();
    };

    root.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-downloads-cmd]');
      if (!button) return;
      act(button.dataset.downloadsCmd, Number(button.closest('.download-row').dataset.episodeId));
    });
    const stopDownloads = downloads.subscribe(render);
    const stopLibrary = library.subscribe(() => settings.update(true));
    // "Retrying in 5 s" counts down between messages.
    const ticker = setInterval(() => { if (downloads.items.some((item) => item.retryAt)) render(); }, 1000);
    render();
    if (!downloads.loaded) downloads.load().catch(() => {});
    return {
      title: 'Downloads',
      destroy() {
        stopDownloads();
        stopLibrary();
        clearInterval(ticker);
      },
    };
  },
};

/** Sends a row button's command (`Cmd.download…`) for `episode`; a finished download is
 *  deleted only once the listener confirms. */
async function act(command, episode) {
  const item = downloads.get(episode);
  if (command === Cmd.downloadDelete && item?.state === 'done' && !(await confirmDialog({
    title: 'Delete the download?',
    text: `“${item.title || 'This episode'}” will play from the web again until you download it again.`,
    confirm: 'Delete',
  }))) return;
  socket.send(command, { episode });
}

function buildRow(item) {
  const buttons = [...ACTIONS[item.state] ?? [], DELETE].map(([command, kind, label, name]) =>
    h('button', {
      type: 'button',
      class: `button button-small download-action download-${kind}`,
      dataset: { downloadsCmd: command },
      'aria-label': `${label}: ${item.title || 'episode'}`,
    }, name === 'stop' || name === 'trash' ? downloadGlyph(name) : icon(name), h('span', { class: 'button-label' }, label)));
  return h('li', { class: 'download-row', dataset: { episodeId: item.episode, state: item.state } },
    h('div', { class: 'download-text' },
      h('a', { class: 'download-title', href: `/episode/${item.episode}` }),
      h('p', { class: 'download-meta' }, h('span', { class: 'download-podcast' }), h('span', { class: 'download-status' })),
      h('p', { class: 'download-error' }),
      item.state === 'done' || item.state === 'failed' ? null : h('progress', { class: 'download-progress', max: '1', value: '0', 'aria-hidden': 'true' })),
    h('div', { class: 'download-actions' }, buttons));
}

function updateRow(row, item) {
  const set = (selector, text) => {
    const el = row.querySelector(selector);
    if (el && el.textContent !== text) el.textContent = text;
  };
  set('.download-title', item.title || 'Untitled episode');
  set('.download-podcast', item.podcast ?? '');
  const finished = item.state === 'done' && item.finishedAt ? ` · ${dateText(item.finishedAt)}` : '';
  set('.download-status', statusText(item) + finished);
  const error = row.querySelector('.download-error');
  const reason = item.error && (item.state === 'failed' || item.retryAt) ? item.error : '';
  error.hidden = !reason;
  set('.download-error', reason);
  const bar = row.querySelector('.download-progress');
  if (bar) {
    if (item.fraction === null || item.fraction === undefined) bar.removeAttribute('value');
    else bar.value = item.fraction;
  }
}

/** Concurrency, cleanup and per-podcast auto-download, as the server has them. */
function settingsSection() {
  const concurrency = h('select', { id: 'download-concurrency', class: 'download-setting' },
    [1, 2, 3, 4, 5, 6].map((n) => h('option', { value: String(n) }, String(n))));
  const cleanup = h('select', { id: 'download-cleanup', class: 'download-setting' },
    DAYS.map((days) => h('option', { value: days === null ? '' : String(days) },
      days === null ? 'Never' : `${days} ${days === 1 ? 'day' : 'days'} after playing`)));
  const autoList = h('ul', { class: 'download-auto-list' });
  concurrency.addEventListener('change', () => socket.send(Cmd.downloadSettings, { concurrency: Number(concurrency.value) }));
  cleanup.addEventListener('change', () => socket.send(Cmd.downloadSettings, {
    deletePlayedAfterDays: cleanup.value === '' ? null : Number(cleanup.value),
  }));
  const el = h('section', { class: 'section downloads-settings', 'aria-labelledby': 'downloads-settings-title' },
    h('h2', { class: 'section-title', id: 'downloads-settings-title' }, 'Settings'),
    h('div', { class: 'download-setting-row' }, h('label', { for: 'download-concurrency' }, 'Downloads at once'), concurrency),
    h('div', { class: 'download-setting-row' }, h('label', { for: 'download-cleanup' }, 'Delete played downloads'), cleanup),
    h('h3', { class: 'download-auto-title' }, 'Download new episodes automatically'),
    autoList);

  let podcastsShown = null;
  const update = (podcastsChanged = false) => {
    const { settings } = downloads;
    if (document.activeElement !== concurrency) concurrency.value = String(settings.concurrency ?? 2);
    if (document.activeElement !== cleanup) cleanup.value = settings.deletePlayedAfterDays ? String(settings.deletePlayedAfterDays) : '';
    const podcasts = library.podcasts;
    const signature = JSON.stringify(podcasts.map((p) => [p.id, p.title]));
    if (podcastsChanged || signature !== podcastsShown) {
      podcastsShown = signature;
      autoList.replaceChildren(...podcasts.map((podcast) => autoRow(podcast)));
      if (!podcasts.length) autoList.append(h('li', { class: 'empty' }, 'No podcasts yet.'));
    }
    for (const select of autoList.querySelectorAll('select')) {
      if (document.activeElement === select) continue;
      const newest = settings.autoDownload?.[select.dataset.podcastId];
      select.value = newest ? String(newest) : '';
    }
  };
  return { el, update };
}

function autoRow(podcast) {
  const id = `download-auto-${podcast.id}`;
  const select = h('select', { id, class: 'download-setting', dataset: { podcastId: podcast.id } },
    NEWEST.map((n) => h('option', { value: n === null ? '' : String(n) }, n === null ? 'Off' : `Newest ${n}`)));
  select.addEventListener('change', () => socket.send(Cmd.downloadAuto, {
    podcast: podcast.id, newest: select.value === '' ? null : Number(select.value),
  }));
  return h('li', { class: 'download-setting-row' }, h('label', { for: id }, podcast.title || 'Untitled podcast'), select);
}
