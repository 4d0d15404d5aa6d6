// Episode page `/episode/{id}`: artwork, title, podcast, date, duration, season and number,
// a play button, the show notes (sanitized rich text from the server, built as DOM here), and
// beside them the chapters, the people and the transcripts. Under the notes the transcript itself
// (components/transcript.js), fetched when the page opens; `?t=SECONDS` (a search hit said then)
// scrolls it to that moment and offers to play from there.

import { h, artwork } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { dateText, dateISO, durationText } from '../core/format.js';
import { richText, hasRichText } from '../core/rich-text.js';
import { playButton, equalizer, showPlayed } from '../components/episode-row.js';
import { downloadButton } from '../components/download-button.js';
import { markNowPlaying } from '../components/now-playing.js';
import { chapterList } from '../components/chapter-list.js';
import { transcriptPanel } from '../components/transcript.js';
import { queueItems, markItem } from '../components/row-menu.js';
import { playlistItem } from '../components/playlist-picker.js';
import { socket } from '../core/socket.js';
import { Msg } from '../core/commands.js';
import { factList, people, transcriptLinks, fundingLinks } from '../components/facts.js';
import { problem } from './problem.js';

export const episodeView = {
  async mount(root, [id], isCurrent) {
    let episode;
    try {
      ({ episode } = await getJSON(`/api/episodes/${id}`));
    } catch (error) {
      if (isCurrent()) root.replaceChildren(...problem(error.status === 404 ? 'Episode not found' : 'Could not load this episode', error.message));
      return { title: 'Not found' };
    }
    if (!isCurrent()) return null;
    const chapters = chapterList(episode);
    const transcript = hasTranscript(episode) ? transcriptPanel(episode.id, { at: requestedTime() }) : null;
    root.replaceChildren(page(episode, chapters?.el ?? null, transcript?.el ?? null));
    markNowPlaying(root);
    // Marked played or unplayed elsewhere (another tab, the row menu): follow the server.
    const stopLibrary = socket.on(Msg.library, () => {
      getJSON(`/api/episodes/${episode.id}`)
        .then(({ episode: now }) => { if (isCurrent()) showPlayed(now.id, Boolean(now.played)); })
        .catch(() => {});
    });
    return {
      title: episode.title,
      destroy() {
        stopLibrary();
        chapters?.destroy?.();
        transcript?.destroy();
      },
    };
  },
};

/** Whether the feed links a transcript for `episode` (the server picks the best of them). */
function hasTranscript(episode) {
  const links = episode.details?.transcripts;
  return Array.isArray(links) && links.some((link) => typeof link?.url === 'string' && link.url !== '');
}

/** `?t=` of the page's address: seconds, or null. */
function requestedTime() {
  const value = new URLSearchParams(location.search).get('t');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

function page(episode, chapters, transcript) {
  const details = episode.details ?? {};
  const button = playButton(episode, 'button button-primary episode-play');
  button.append(h('span', { class: 'button-label' }, 'Play'));
  const aside = [chapters, extras(details)].filter(Boolean);
  return h('article', { class: 'episode-page', dataset: { episodeId: episode.id } },
    h('header', { class: 'episode-page-header' },
      h('span', { class: 'art-wrap episode-page-art' }, artwork(episode.artwork, 'art', 320), equalizer()),
      h('div', { class: 'episode-page-text' },
        h('a', { class: 'episode-page-podcast', href: `/podcast/${episode.podcastId}` }, episode.podcast ?? ''),
        h('h1', { class: 'view-title', tabindex: '-1' }, episode.title || 'Untitled episode'),
        details.subtitle && details.subtitle !== episode.title ? h('p', { class: 'episode-subtitle' }, details.subtitle) : null,
        h('p', { class: 'episode-meta' }, h('span', { class: 'episode-facts' }, facts(episode, details))),
        h('div', { class: 'episode-page-actions' }, button,
          downloadButton(episode, { labelled: true, className: 'episode-download' }),
          queueItems(episode.id, episode.title ?? '', 'button button-small episode-queue'),
          playlistItem(episode.id, episode.title ?? '', 'button button-small episode-playlist'),
          markItem(episode.id, episode.title ?? '', Boolean(episode.played), 'button button-small episode-mark')))),
    h('div', { class: aside.length ? 'episode-columns' : 'episode-columns is-single' },
      h('div', { class: 'episode-main' }, notes(episode, details), transcript),
      aside.length ? h('aside', { class: 'episode-aside', 'aria-label': 'About this episode' }, aside) : null));
}

/** Date · duration · Season 2 · Episode 5 · Trailer · Explicit · Played. */
function facts(episode, details) {
  const date = dateText(episode.published);
  const duration = durationText(episode.duration);
  const type = typeof details.type === 'string' ? details.type.toLowerCase() : '';
  return [
    date ? h('time', { datetime: dateISO(episode.published) }, date) : null,
    duration ? h('span', { class: 'episode-duration' }, duration) : null,
    Number.isInteger(details.season) ? h('span', { class: 'episode-season' }, `Season ${details.season}`) : null,
    Number.isInteger(details.number) ? h('span', { class: 'episode-number' }, `Episode ${details.number}`) : null,
    type === 'trailer' || type === 'bonus' ? h('span', { class: 'episode-type' }, type === 'trailer' ? 'Trailer' : 'Bonus') : null,
    details.explicit === true ? h('span', { class: 'episode-explicit' }, 'Explicit') : null,
    episode.played ? h('span', { class: 'played-mark' }, 'Played') : null,
  ];
}

/** The show notes: rich text when the server sent some, else the plain summary. */
function notes(episode, details) {
  let body;
  if (hasRichText(details.notes)) body = h('div', { class: 'rich-text' }, richText(details.notes));
  else if (episode.summary) body = h('p', { class: 'show-notes-text' }, episode.summary);
  else body = h('p', { class: 'empty' }, 'No show notes.');
  return h('section', { class: 'show-notes', 'aria-label': 'Show notes' }, body);
}

/** People, transcripts, the episode's author and support links, when the feed gives them. */
function extras(details) {
  const author = typeof details.author === 'string' ? details.author.trim() : '';
  const list = factList([
    ['People', people(details.persons)],
    ['By', author],
    ['Transcripts', transcriptLinks(details.transcripts)],
    ['Support', fundingLinks({ paymentURL: details.paymentURL })],
  ], 'facts episode-facts-list');
  return list ? h('section', { class: 'episode-more', 'aria-label': 'More about this episode' }, list) : null;
}
