// Earshot web client: wires the socket, the stores, the router and the persistent
// components (mini-player, connection indicator, shortcuts, media session, playback alerts,
// download buttons and the header's download status, the Inbox badge, the pairing watch) together.

import { socket } from './core/socket.js';
import { Msg } from './core/commands.js';
import { player } from './core/player-state.js';
import { library } from './core/library.js';
import { refresh } from './core/refresh.js';
import { router } from './core/router.js';
import { toast } from './core/toast.js';
import { initActions } from './components/actions.js';
import { initArtworkFallback } from './components/artwork-fallback.js';
import { initConnectionIndicator } from './components/connection.js';
import { initKeyboard } from './components/keyboard.js';
import { initMediaSession } from './components/media-session.js';
import { initMiniPlayer } from './components/mini-player.js';
import { initPlaybackAlerts } from './components/playback-alerts.js';
import { markNowPlaying } from './components/now-playing.js';
import { libraryView } from './views/library.js';
import { podcastView } from './views/podcast.js';
import { episodeView } from './views/episode.js';
import { playerView } from './views/player.js';
import { queueView } from './views/queue.js';
import { playlistsView } from './views/playlists.js';
import { playlistView } from './views/playlist.js';
import { devicesView } from './views/devices.js';
import { initPairingWatch } from './components/pairing-watch.js';
import { downloadsView } from './views/downloads.js';
import { downloads } from './core/downloads.js';
import { initDownloadButtons } from './components/download-button.js';
import { initDownloadStatus } from './components/download-status.js';
import { notFoundView } from './views/problem.js';
import { searchView } from './views/search.js';
import { initHeaderSearch } from './components/header-search.js';
import { inboxView } from './views/inbox.js';
import { statsView } from './views/stats.js';
import { initInboxBadge } from './components/inbox-badge.js';

const ROUTES = [
  { name: 'library', pattern: /^\/$/, view: libraryView },
  { name: 'podcast', pattern: /^\/podcast\/(\d+)$/, view: podcastView },
  { name: 'episode', pattern: /^\/episode\/(\d+)$/, view: episodeView },
  { name: 'player', pattern: /^\/player$/, view: playerView },
  { name: 'queue', pattern: /^\/queue$/, view: queueView },
  { name: 'playlists', pattern: /^\/playlists$/, view: playlistsView },
  { name: 'playlist', pattern: /^\/playlist\/(\d+)$/, view: playlistView },
  { name: 'downloads', pattern: /^\/downloads$/, view: downloadsView },
  { name: 'devices', pattern: /^\/devices$/, view: devicesView },
  { name: 'search', pattern: /^\/search$/, view: searchView },
  { name: 'inbox', pattern: /^\/inbox$/, view: inboxView },
  { name: 'stats', pattern: /^\/stats$/, view: statsView },
];

const view = document.getElementById('view');

let connectedBefore = false;
socket.on('status', (status) => {
  if (status !== 'open') return;
  player.resetSequence(); // the snapshot that follows resyncs us
  refresh.load().catch(() => {}); // a refresh may be running (progress sent while we were away is lost)
  // Feeds may have been added while we were away: `library` messages sent then are lost.
  if (connectedBefore) library.load().catch(() => {});
  connectedBefore = true;
});
socket.on(Msg.state, (message) => player.apply(message));
socket.on(Msg.time, (message) => player.apply(message));
socket.on(Msg.library, () => library.load().catch((error) => toast(error.message, 'error')));
socket.on(Msg.refresh, (message) => refresh.receive(message));
// Every client gets a `downloads` message on connect, so a reconnect needs no fetch of its own.
socket.on(Msg.downloads, (message) => downloads.receive(message));

// A refresh that just finished changed feeds' status and error: refetch the lists.
let refreshing = false;
refresh.subscribe((status) => {
  if (refreshing && !status.running) library.load().catch(() => {});
  refreshing = status.running;
});
socket.on('commandError', ({ message }) => toast(message, 'error'));

// The player's failures (a broken enclosure, …) and notices (an output unplugged) stay in a
// strip above every view until they change or are dismissed.
initPlaybackAlerts(view);
player.subscribe((state, kind) => {
  if (kind === 'tick') return;
  markNowPlaying(view);
});

initActions();
initArtworkFallback();
initConnectionIndicator(document.getElementById('connection'));
initKeyboard(document.getElementById('shortcuts'), document.getElementById('shortcuts-open'));
initHeaderSearch(document.getElementById('header-search'));
initMiniPlayer(document.getElementById('mini-player'));
initMediaSession();
initDownloadButtons();
initDownloadStatus(document.querySelector('.header-downloads'));
initInboxBadge(document.querySelector('.header-inbox')); // the Inbox's count on its header link
initPairingWatch(); // a revoked device goes back to the pairing page
socket.connect();

// The first paint already shows the library; fetch the lists, then let the router take over.
try {
  await library.load();
} catch (error) {
  toast(error.message, 'error');
}
router.start(view, ROUTES, notFoundView);
