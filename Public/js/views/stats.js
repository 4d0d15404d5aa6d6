// Statistics `/stats` (issue 18): listening time for the last week, month or all time, episodes
// finished, the time saved by each cause (speed, skip silence, intros, outros, chapters), a bar
// chart of the days (all time: the months) drawn as SVG here, and the podcasts most listened to.
// From GET /api/stats, the listening log's played spans; fetched again when the period changes.

import { h } from '../core/dom.js';
import { getJSON } from '../core/api.js';
import { plural } from '../core/format.js';

const PERIODS = [['week', 'Week'], ['month', 'Month'], ['all', 'All time']];
const SAVED = [['speed', 'Speed'], ['silence', 'Skip silence'], ['intro', 'Intros'], ['outro', 'Outros'], ['chapters', 'Chapters']];
const SVG = 'http://www.w3.org/2000/svg';

export const statsView = {
  mount(root) {
    let period = 'week';
    let ask = null;
    const buttons = PERIODS.map(([value, name]) => h('button', {
      type: 'button', class: 'button button-small stats-period', dataset: { period: value }, 'aria-pressed': String(value === period),
      on: { click: () => { period = value; load(); } },
    }, name));
    const listened = h('p', { class: 'stats-figure stats-listened' });
    const finished = h('p', { class: 'stats-figure stats-finished' });
    const savedTotal = h('p', { class: 'stats-figure stats-saved' });
    const savedList = h('dl', { class: 'stats-saved-list' });
    const chart = h('figure', { class: 'stats-chart' });
    const podcasts = h('ol', { class: 'stats-podcasts', 'aria-label': 'Podcasts by listening time' });
    const message = h('p', { class: 'form-message', role: 'status' });
    root.replaceChildren(
      h('div', { class: 'section-head stats-head' }, h('h1', { class: 'view-title', tabindex: '-1' }, 'Listening stats'),
        h('div', { class: 'stats-periods', role: 'group', 'aria-label': 'Period' }, ...buttons)),
      message,
      h('div', { class: 'stats-figures' },
        h('div', { class: 'stats-box' }, h('h2', { class: 'stats-label' }, 'Listened'), listened),
        h('div', { class: 'stats-box' }, h('h2', { class: 'stats-label' }, 'Episodes finished'), finished),
        h('div', { class: 'stats-box' }, h('h2', { class: 'stats-label' }, 'Time saved'), savedTotal, savedList)),
      chart,
      h('h2', { class: 'section-title' }, 'Podcasts'),
      podcasts);

    const load = async () => {
      for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.period === period));
      ask?.abort();
      ask = new AbortController();
      try {
        show(await getJSON(`/api/stats?period=${period}`, { signal: ask.signal }));
        message.textContent = '';
      } catch (error) {
        if (error.name !== 'AbortError') message.textContent = `Could not load the statistics: ${error.message}`;
      }
    };

    const show = (stats) => {
      listened.textContent = hours(stats.listenedSeconds);
      finished.textContent = String(stats.finished);
      const saved = stats.savedSeconds ?? {};
      savedTotal.textContent = hours(SAVED.reduce((sum, [key]) => sum + (saved[key] ?? 0), 0));
      savedList.replaceChildren(...SAVED.flatMap(([key, name]) => [
        h('dt', {}, name), h('dd', { dataset: { saved: key } }, hours(saved[key] ?? 0))]));
      const bars = period === 'all'
        ? stats.months.map((m) => [m.month, monthLabel(m.month), m.listenedSeconds])
        : stats.days.map((d) => [d.date, dayLabel(d.date, period), d.listenedSeconds]);
      const caption = period === 'all' ? 'Listening per month' : 'Listening per day';
      // Drawn at the figure's own width: one SVG unit per CSS pixel, so labels keep their size.
      chart.replaceChildren(h('figcaption', { class: 'stats-label' }, caption), barChart(bars, caption, chart.clientWidth || 700));
      const top = Math.max(1, ...stats.podcasts.map((p) => p.listenedSeconds));
      podcasts.replaceChildren(...stats.podcasts.map((p) => h('li', { class: 'stats-podcast', dataset: { podcastId: String(p.id) } },
        h('a', { class: 'stats-podcast-title', href: `/podcast/${p.id}` }, p.title || 'Untitled'),
        h('span', { class: 'stats-podcast-time' }, hours(p.listenedSeconds)),
        h('span', { class: 'stats-podcast-bar', style: `--share: ${(p.listenedSeconds / top).toFixed(3)}` }))));
      if (!stats.podcasts.length) podcasts.replaceChildren(h('li', { class: 'empty' }, 'Nothing listened to in this period.'));
    };

    load();
    return { title: 'Listening stats', destroy: () => ask?.abort() };
  },
};

/** "2 h 05 min", "12 min", "40 s" (negative: "−12 min"). */
export function hours(seconds) {
  const sign = seconds < 0 ? '−' : '';
  const s = Math.round(Math.abs(seconds));
  if (s < 60) return `${sign}${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${sign}${m} min`;
  return `${sign}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

function dayLabel(date, period) {
  const [y, mo, d] = date.split('-').map(Number);
  const day = new Date(y, mo - 1, d);
  return period === 'week' ? day.toLocaleDateString(undefined, { weekday: 'short' }) : String(d);
}

function monthLabel(month) {
  const [y, mo] = month.split('-').map(Number);
  return new Date(y, mo - 1, 1).toLocaleDateString(undefined, { month: 'short', year: '2-digit' });
}

/** A bar chart of `bars` ([key, label, seconds]) as SVG, with a title and one <title> per bar. */
function barChart(bars, caption, width) {
  const height = 180, bottom = 22, gap = Math.min(4, width / Math.max(1, bars.length) / 4);
  const top = Math.max(60, ...bars.map(([, , s]) => s));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'stats-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', caption);
  const step = width / Math.max(1, bars.length);
  const labelEvery = Math.ceil(bars.length / Math.max(2, Math.floor(width / 48)));
  bars.forEach(([key, label, seconds], i) => {
    const barHeight = Math.round((seconds / top) * (height - bottom - 8));
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(i * step + gap / 2));
    rect.setAttribute('y', String(height - bottom - barHeight));
    rect.setAttribute('width', String(Math.max(1, step - gap)));
    rect.setAttribute('height', String(Math.max(seconds > 0 ? 2 : 0, barHeight)));
    rect.setAttribute('rx', '3');
    rect.setAttribute('class', 'stats-bar');
    rect.dataset.key = key;
    rect.dataset.seconds = String(seconds);
    const tip = document.createElementNS(SVG, 'title');
    tip.textContent = `${label}: ${hours(seconds)}`;
    rect.append(tip);
    svg.append(rect);
    if (i % labelEvery === 0) {
      const text = document.createElementNS(SVG, 'text');
      text.setAttribute('x', String(i * step + step / 2));
      text.setAttribute('y', String(height - 6));
      text.setAttribute('text-anchor', 'middle');
      text.setAttribute('class', 'stats-axis');
      text.textContent = label;
      svg.append(text);
    }
  });
  return svg;
}
