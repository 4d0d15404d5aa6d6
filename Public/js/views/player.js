// Full player `/player`: large artwork, title, podcast, the scrubber with elapsed and
// −remaining, skip back/forward (by the listener's intervals), play/pause, speed, the sleep timer,
// volume and mute, the alarm, skip silence and volume leveling, the skip intervals and played margin (server
// settings) and this device's
// lock-screen switch; the chapter list and the transcript beside it (wide) or below it (narrow).

import { h, safeUrl } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { player } from '../core/player-state.js';
import { router } from '../core/router.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';
import { scrubber } from '../components/scrubber.js';
import { playerChapters } from '../components/chapter-list.js';
import { playerTranscript } from '../components/transcript.js';
import { speedMenu } from '../components/speed-menu.js';
import { volumeControl } from '../components/volume-control.js';
import { sleepButton } from '../components/sleep-menu.js';
import { alarmButton } from '../components/alarm-menu.js';
import { skipIntervalSettings, skipIntervals } from '../components/skip-intervals.js';
import { mediaSessionSetting } from '../components/media-session.js';
import { playedMarginSetting } from '../components/played-margin.js';
import { listeningSettings } from '../components/listening-settings.js';
import { outputButton } from '../components/output-menu.js';
import { handoffPanel } from '../components/handoff-panel.js';
import { artworkURL } from '../core/artwork-url.js';

export const playerView = {
  mount(root) {
    const seek = scrubber();
    const chapters = playerChapters();
    const transcript = playerTranscript();
    const speed = speedMenu((value) => socket.send(Cmd.rate, { value }), { steppers: true });
    const volume = volumeControl();
    const sleep = sleepButton();
    const alarm = alarmButton();
    const idleAlarm = alarmButton();
    const output = outputButton();
    const handoffUI = handoffPanel();
    const skips = skipIntervalSettings();
    const margin = playedMarginSetting();
    const listening = listeningSettings();
    const art = h('img', { class: 'player-art', alt: '', width: 512, height: 512 });
    const artBox = h('div', { class: 'player-art-box' }, art);
    const title = h('h1', { class: 'player-title', tabindex: '-1' });
    const podcast = h('a', { class: 'player-podcast', href: '/' });
    const toggle = h('button', { type: 'button', class: 'transport-toggle', dataset: { action: 'playpause' }, 'aria-label': 'Play' }, icon('play'));
    const skipButton = (by, name, label) =>
      h('button', { type: 'button', class: 'transport-skip', dataset: { action: 'skip', by }, 'aria-label': label }, icon(name, Math.abs(by)));
    const skipBack = skipButton(-15, 'back15', 'Back 15 seconds');
    const skipForward = skipButton(30, 'forward15', 'Forward 30 seconds');
    let skipShown = null;
    const showSkips = () => {
      const { back, forward } = skipIntervals();
      if (skipShown === `${back}/${forward}`) return;
      skipShown = `${back}/${forward}`;
      for (const [button, by, name, words] of [[skipBack, -back, 'back15', 'Back'], [skipForward, forward, 'forward15', 'Forward']]) {
        button.dataset.by = String(by);
        button.setAttribute('aria-label', `${words} ${Math.abs(by)} seconds`);
        button.replaceChildren(icon(name, Math.abs(by)));
      }
    };

    const trackButton = (action, name, label) =>
      h('button', { type: 'button', class: 'transport-track', dataset: { action }, 'aria-label': label }, icon(name));
    const shuffle = h('button', { type: 'button', class: 'mode-button', dataset: { action: 'shuffle' }, 'aria-pressed': 'false' },
      icon('shuffle'), h('span', { class: 'mode-label' }, 'Shuffle'));
    const repeatLabel = h('span', { class: 'mode-label' }, 'Repeat off');
    const repeat = h('button', { type: 'button', class: 'mode-button', dataset: { action: 'repeat' }, 'aria-pressed': 'false' },
      icon('repeat'), repeatLabel);

    const body = h('div', { class: 'player-body' },
      artBox,
      h('div', { class: 'player-heading' }, title, podcast),
      handoffUI.el,
      seek.el,
      h('div', { class: 'transport' },
        trackButton('previous', 'previous', 'Previous episode'),
        skipBack, toggle, skipForward,
        trackButton('next', 'next', 'Next episode')),
      h('div', { class: 'player-modes' }, shuffle, repeat,
        h('a', { class: 'button button-small player-queue-link', href: '/queue' }, icon('queue'), h('span', { class: 'button-label' }, 'Queue'))),
      h('div', { class: 'player-controls' }, speed.el, sleep.el, alarm.el, output.el),
      volume.el,
      h('div', { class: 'player-extras' }, listening.el, skips.el, margin.el, lockScreenSwitch(),
        h('a', { class: 'button button-small player-stats-link', href: '/stats' }, icon('chart'), h('span', { class: 'button-label' }, 'Listening stats'))));
    const empty = h('div', { class: 'player-empty' },
      h('h1', { class: 'player-title', tabindex: '-1' }, 'Nothing is playing'),
      h('p', { class: 'player-empty-links' }, h('a', { class: 'button', href: '/' }, 'Choose an episode'),
        h('a', { class: 'button', href: '/queue' }, 'Queue'), h('a', { class: 'button', href: '/stats' }, 'Listening stats')),
      h('p', { class: 'player-empty-links' }, idleAlarm.el));

    root.replaceChildren(h('section', { class: 'player', 'aria-label': 'Player' },
      h('div', { class: 'player-top' },
        h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close player', on: { click: () => router.back('/') } }, icon('chevronDown')),
        h('span', { class: 'player-kicker' }, 'Now playing'),
        h('span', { class: 'player-top-spacer' })),
      body, chapters.el, transcript.el, empty));

    let shown = null; // identity of the episode on screen
    let showing = null;
    const render = (state, kind) => {
      const episode = player.episode;
      if (kind !== 'tick') {
        chapters.update(state);
        transcript.update(state);
      }
      body.hidden = !episode;
      empty.hidden = Boolean(episode);
      if (kind !== 'tick') { alarm.update(state); idleAlarm.update(state); }
      if (!episode) return;
      if (kind !== 'tick') {
        const identity = `${episode.id}\n${episode.title}\n${episode.artwork}`;
        if (identity !== shown) {
          shown = identity;
          title.textContent = episode.title ?? '';
          podcast.textContent = episode.podcast ?? '';
          podcast.href = episode.podcastId ? `/podcast/${episode.podcastId}` : '/';
          const src = safeUrl(artworkURL(episode.artwork, 400));
          if (src) art.src = src;
          else art.removeAttribute('src');
          art.hidden = !src;
          document.title = `${episode.title ?? 'Player'} · Earshot`;
        }
        const next = player.paused ? 'play' : 'pause';
        if (next !== showing) {
          showing = next;
          toggle.replaceChildren(icon(next));
          toggle.setAttribute('aria-label', next === 'play' ? 'Play' : 'Pause');
        }
        // mpv waits for data: a ring turns around the play button (CSS delays it, so a quick
        // seek never flashes it).
        const waiting = Boolean(state?.buffering) && Boolean(episode);
        toggle.classList.toggle('is-buffering', waiting);
        toggle.setAttribute('aria-busy', String(waiting));
        output.update(state);
        speed.update(Number(state?.rate) || 1);
        volume.update(state);
        skips.update(state?.settings);
        showSkips();
        margin.update(state?.settings);
        listening.update(state?.settings, state);
        const shuffled = Boolean(state?.shuffle);
        shuffle.setAttribute('aria-pressed', String(shuffled));
        const mode = ['all', 'one'].includes(state?.repeat) ? state.repeat : 'off';
        if (repeat.dataset.mode !== mode) {
          repeat.dataset.mode = mode;
          repeat.setAttribute('aria-pressed', String(mode !== 'off'));
          repeat.querySelector('svg').replaceWith(icon(mode === 'one' ? 'repeatOne' : 'repeat'));
          repeatLabel.textContent = { off: 'Repeat off', all: 'Repeat all', one: 'Repeat one' }[mode];
        }
      }
      seek.update();
      sleep.update(state);
      if (kind !== 'tick') handoffUI.update();
    };
    const unsubscribe = player.subscribe(render);
    render(player.state, 'state');
    return {
      title: player.episode?.title ?? 'Player',
      destroy() {
        unsubscribe();
        seek.destroy();
        transcript.destroy();
        handoffUI.destroy();
      },
    };
  },
};

/** The per-device switch for lock-screen controls and media keys. */
function lockScreenSwitch() {
  const box = h('input', { type: 'checkbox', class: 'switch-input', role: 'switch' });
  box.checked = mediaSessionSetting.enabled;
  box.addEventListener('change', () => { mediaSessionSetting.enabled = box.checked; });
  return h('label', { class: 'switch', title: 'Plays a silent clip on this device so its lock screen and media keys control Earshot' },
    box, h('span', { class: 'switch-track', 'aria-hidden': 'true' }), h('span', { class: 'switch-label' }, 'Lock-screen controls'));
}
