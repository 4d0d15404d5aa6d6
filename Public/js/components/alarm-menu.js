// The alarm (issue 18): lives on the server (`state.alarm`), so every client shows it and can
// turn it off. The full player's Alarm button (the time when set, "Ringing" while the volume
// rises) opens a dialog: the time, the days, and what to wake with — Up Next, or the newest
// unplayed episode of chosen podcasts — then Set alarm (`alarm.set`) or Turn off (`alarm.cancel`).

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { player } from '../core/player-state.js';
import { library } from '../core/library.js';
import { focusBackOnClose, menuButton } from './menu-button.js';

const DAYS = [[1, 'Mon'], [2, 'Tue'], [3, 'Wed'], [4, 'Thu'], [5, 'Fri'], [6, 'Sat'], [7, 'Sun']];

/** "Weekdays", "Every day", "Weekends" or "Mon, Wed". */
export function daysText(days = []) {
  const set = [...days].sort().join(',');
  if (set === '1,2,3,4,5,6,7') return 'Every day';
  if (set === '1,2,3,4,5') return 'Weekdays';
  if (set === '6,7') return 'Weekends';
  return DAYS.filter(([n]) => days.includes(n)).map(([, name]) => name).join(', ');
}

/** A sentence for the dialog and screen readers. */
function alarmSummary(alarm) {
  if (!alarm) return 'Off';
  if (alarm.ringing) return `Ringing: the volume is rising`;
  const when = Number.isFinite(alarm.next)
    ? new Date(alarm.next * 1000).toLocaleString(undefined, { weekday: 'long', hour: '2-digit', minute: '2-digit' })
    : alarm.time;
  return `Next: ${when} (${daysText(alarm.days)})`;
}

/** Sends a command; resolves on its ack, rejects with the server's words. */
function ask(cmd, args) {
  return new Promise((resolve, reject) => {
    const id = socket.send(cmd, args);
    if (id === null) { reject(new Error('Not connected to Earshot')); return; }
    const done = () => { offAck(); offError(); };
    const offAck = socket.on('commandAck', (m) => { if (m.id === id) { done(); resolve(); } });
    const offError = socket.on('commandError', (m) => { if (m.id === id) { done(); reject(new Error(m.message)); } });
  });
}

let menu = null;

/** Opens the alarm dialog. */
export function openAlarmMenu() {
  menu ??= buildMenu();
  if (menu.dialog.open) return;
  menu.opener = document.activeElement;
  menu.fill(player.state?.alarm);
  menu.dialog.showModal();
  menu.time.focus();
}

function buildMenu() {
  const status = h('p', { class: 'alarm-status', role: 'status' });
  const time = h('input', { type: 'time', class: 'text-input alarm-time', required: true, 'aria-label': 'Wake at', value: '07:00' });
  const dayBoxes = DAYS.map(([n, name]) => {
    const box = h('input', { type: 'checkbox', class: 'alarm-day-box', value: String(n) });
    return { n, box, el: h('label', { class: 'alarm-day' }, box, h('span', {}, name)) };
  });
  const upNext = h('input', { type: 'radio', name: 'alarm-source', value: 'queue', class: 'alarm-source-queue', checked: true });
  const newest = h('input', { type: 'radio', name: 'alarm-source', value: 'podcasts', class: 'alarm-source-podcasts' });
  const podcastList = h('div', { class: 'alarm-podcasts', role: 'group', 'aria-label': 'Podcasts' });
  const message = h('p', { class: 'form-message alarm-message', role: 'status' });
  const set = h('button', { type: 'submit', class: 'button button-primary alarm-set' }, 'Set alarm');
  const off = h('button', { type: 'button', class: 'button alarm-cancel' }, 'Turn off');
  const close = h('button', { type: 'button', class: 'button alarm-close', on: { click: () => dialog.close() } }, 'Close');
  const form = h('form', { class: 'alarm-form' },
    h('label', { class: 'alarm-field' }, h('span', { class: 'skips-label' }, 'Wake at'), time),
    h('fieldset', { class: 'alarm-days' }, h('legend', { class: 'skips-label' }, 'On'), ...dayBoxes.map((d) => d.el)),
    h('fieldset', { class: 'alarm-source' }, h('legend', { class: 'skips-label' }, 'With'),
      h('label', { class: 'alarm-choice' }, upNext, h('span', {}, 'Up Next')),
      h('label', { class: 'alarm-choice' }, newest, h('span', {}, 'The newest episode of…')),
      podcastList),
    message,
    h('div', { class: 'dialog-actions' }, off, close, set));
  const dialog = h('dialog', { class: 'dialog alarm-dialog', 'aria-labelledby': 'alarm-title' },
    h('h2', { id: 'alarm-title' }, icon('alarm'), 'Alarm'), status, form);
  document.body.append(dialog);

  const showPodcasts = (chosen = []) => {
    const subscribed = library.podcasts.filter((p) => p.subscribed !== false);
    podcastList.replaceChildren(...subscribed.map((p) => h('label', { class: 'alarm-podcast' },
      h('input', { type: 'checkbox', value: String(p.id), checked: chosen.includes(p.id) }), h('span', {}, p.title || 'Untitled'))));
    podcastList.hidden = !newest.checked;
  };
  for (const radio of [upNext, newest]) radio.addEventListener('change', () => { podcastList.hidden = !newest.checked; });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const days = dayBoxes.filter((d) => d.box.checked).map((d) => d.n);
    if (!days.length) { message.textContent = 'Choose at least one day.'; return; }
    let podcasts = null;
    if (newest.checked) {
      podcasts = [...podcastList.querySelectorAll('input:checked')].map((box) => Number(box.value));
      if (!podcasts.length) { message.textContent = 'Choose at least one podcast, or Up Next.'; return; }
    }
    message.textContent = '';
    try {
      await ask(Cmd.alarmSet, { time: time.value, days, podcasts });
      dialog.close();
    } catch (error) {
      message.textContent = error.message;
    }
  });
  off.addEventListener('click', () => { if (socket.send(Cmd.alarmCancel) !== null) dialog.close(); });

  const render = (alarm) => {
    status.textContent = alarmSummary(alarm);
    off.hidden = !alarm;
    dialog.classList.toggle('is-set', Boolean(alarm));
  };
  let unsubscribe = null;
  focusBackOnClose(dialog, () => built.opener, () => {
    unsubscribe?.();
    unsubscribe = null;
  });
  const built = {
    dialog,
    time,
    opener: null,
    fill(alarm) {
      time.value = alarm?.time ?? '07:00';
      const days = alarm?.days ?? [1, 2, 3, 4, 5];
      for (const d of dayBoxes) d.box.checked = days.includes(d.n);
      newest.checked = Boolean(alarm?.podcasts);
      upNext.checked = !alarm?.podcasts;
      message.textContent = '';
      showPodcasts(alarm?.podcasts ?? []);
      if (!library.loaded) library.load().then(() => showPodcasts(alarm?.podcasts ?? [])).catch(() => {});
      render(alarm);
      unsubscribe ??= player.subscribe((next) => render(next?.alarm));
    },
  };
  return built;
}

/** The Alarm button: a bell and "Alarm", the time when one is set. `update(state)` on changes. */
export function alarmButton() {
  const { el, show } = menuButton('alarm', 'alarm', 'Alarm', openAlarmMenu);
  const update = (state) => {
    const alarm = state?.alarm;
    show(alarm ? (alarm.ringing ? 'Ringing' : alarm.time) : 'Alarm', Boolean(alarm), alarm ? `Alarm: ${alarmSummary(alarm)}` : 'Alarm');
  };
  update(player.state);
  return { el, update };
}
