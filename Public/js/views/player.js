// Full player `/player`: large artwork, title, podcast, the scrubber with elapsed and
// −remaining, −15/+15, play/pause, the speed menu, the played margin (a server setting) and this
// device's lock-screen switch.

import { h, safeUrl } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { player } from '../core/player-state.js';
import { router } from '../core/router.js';
import { socket } from '../core/socket.js';
import { scrubber } from '../components/scrubber.js';
import { speedMenu } from '../components/speed-menu.js';
import { mediaSessionSetting } from '../components/media-session.js';
import { playedMarginSetting } from '../components/played-margin.js';

export const playerView = {
  mount(root) {
    const seek = scrubber();
    const speed = speedMenu((value) => socket.send('rate', { value }));
    const margin = playedMarginSetting();
    const art = h('img', { class: 'player-art', alt: '', width: 512, height: 512 });
    const artBox = h('div', { class: 'player-art-box' }, art);
    const title = h('h1', { class: 'player-title', tabindex: '-1' });
    const podcast = h('a', { class: 'player-podcast', href: '/' });
    const toggle = h('button', { type: 'button', class: 'transport-toggle', dataset: { action: 'playpause' }, 'aria-label': 'Play' }, icon('play'));
    const skipButton = (by, name, label) =>
      h('button', { type: 'button', class: 'transport-skip', dataset: { action: 'skip', by }, 'aria-label': label }, icon(name));

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
      seek.el,
      h('div', { class: 'transport' },
        trackButton('previous', 'previous', 'Previous episode'),
        skipButton(-15, 'back15', 'Back 15 seconds'), toggle, skipButton(15, 'forward15', 'Forward 15 seconds'),
        trackButton('next', 'next', 'Next episode')),
      h('div', { class: 'player-modes' }, shuffle, repeat,
        h('a', { class: 'button button-small player-queue-link', href: '/queue' }, icon('queue'), h('span', { class: 'button-label' }, 'Queue'))),
      h('div', { class: 'player-extras' }, speed.el, margin.el, lockScreenSwitch()));
    const empty = h('div', { class: 'player-empty' },
      h('h1', { class: 'player-title', tabindex: '-1' }, 'Nothing is playing'),
      h('p', { class: 'player-empty-links' }, h('a', { class: 'button', href: '/' }, 'Choose an episode'),
        h('a', { class: 'button', href: '/queue' }, 'Queue')));

    root.replaceChildren(h('section', { class: 'player', 'aria-label': 'Player' },
      h('div', { class: 'player-top' },
        h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close player', on: { click: () => router.back('/') } }, icon('chevronDown')),
        h('span', { class: 'player-kicker' }, 'Now playing'),
        h('span', { class: 'player-top-spacer' })),
      body, empty));

    let shown = null; // identity of the episode on screen
    let showing = null;
    const render = (state, kind) => {
      const episode = player.episode;
      body.hidden = !episode;
      empty.hidden = Boolean(episode);
      if (!episode) return;
      if (kind !== 'tick') {
        const identity = `${episode.id}\n${episode.title}\n${episode.artwork}`;
        if (identity !== shown) {
          shown = identity;
          title.textContent = episode.title ?? '';
          podcast.textContent = episode.podcast ?? '';
          podcast.href = episode.podcastId ? `/podcast/${episode.podcastId}` : '/';
          const src = safeUrl(episode.artwork);
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
        speed.update(Number(state?.rate) || 1);
        margin.update(state?.settings);
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
    };
    const unsubscribe = player.subscribe(render);
    render(player.state, 'state');
    return {
      title: player.episode?.title ?? 'Player',
      destroy() {
        unsubscribe();
        seek.destroy();
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
