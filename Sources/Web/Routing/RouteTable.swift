import EarshotCore
import Foundation

extension EarshotServer {
    /// Every HTTP route of the server, one row each (docs/protocol.md "HTTP" lists the same; a test
    /// holds the two together). The first row whose pattern and method match answers; HEAD is
    /// answered by the GET row (same status and headers, no body); a path some row matches with
    /// another method is `405` with `Allow`; any other path `404`. Who may call a row is its
    /// `RouteAccess`, judged by the transport before the body is read and again by `dispatch`;
    /// Host and Origin are checked for every row by the transport (`AccessPolicy`).
    static let routes: [Route] = [
        // Pages: the app renders the same page for each; a stranger gets the pairing page.
        Route(["GET"], "/", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/player", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/queue", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/playlists", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/downloads", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/devices", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/search", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/inbox", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/stats", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/podcast/{id}", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/episode/{id}", .pairedPage) { s, r in try await s.appPage(r) },
        Route(["GET"], "/playlist/{id}", .pairedPage) { s, r in try await s.appPage(r) },

        // Pairing (EarshotServer+Pairing.swift).
        Route(["GET"], PairingAccess.pairingPath, .anyone) { s, r in try await s.pairingPage(r) },
        Route(["POST"], PairingAccess.pairAPIPath, .anyone, body: .json) { s, r in try await s.pair(r) },
        Route(["GET", "DELETE"], "/api/device", .paired) { s, r in try await s.thisDevice(r) },
        Route(["GET", "POST", "DELETE"], "/api/pairing", .host) { s, r in try await s.pairingCode(r) },
        Route(["GET"], "/api/pairing/qr.svg", .host) { s, r in try await s.pairingQRCode(r) },
        Route(["GET"], "/api/devices", .host) { s, r in try await s.listDevices(r) },
        Route(["DELETE"], "/api/devices/{id}", .host) { s, r in try await s.removeDevice(r) },

        // The library (EarshotServer+API.swift, +Subscriptions, +Refresh, +OPML).
        Route(["GET"], "/api/podcasts", .paired) { s, r in try await s.listPodcasts(r) },
        Route(["GET", "DELETE"], "/api/podcasts/{id}", .paired) { s, r in
            r.method == "DELETE" ? try await s.unsubscribe(r) : try await s.onePodcast(r)
        },
        Route(["GET"], "/api/podcasts/{id}/episodes", .paired) { s, r in try await s.podcastEpisodes(r) },
        Route(["POST"], "/api/podcasts/{id}/refresh", .paired, body: .json) { s, r in try await s.refreshPodcast(r) },
        Route(["GET"], "/api/episodes", .paired) { s, r in try await s.listEpisodes(r) },
        Route(["GET"], "/api/inbox", .paired) { s, r in try await s.inboxEpisodes(r) },
        Route(["GET"], "/api/episodes/{id}", .paired) { s, r in try await s.oneEpisode(r) },
        Route(["GET"], "/api/episodes/{id}/transcript", .paired) { s, r in try await s.episodeTranscript(r) },
        Route(["GET"], "/api/episodes/{id}/listen", .paired) { s, r in try await s.listenToEpisode(r) },
        Route(["GET"], "/api/search", .paired) { s, r in try await s.librarySearch(r) },
        Route(["GET"], "/api/state", .paired) { s, r in try await s.playbackState(r) },
        Route(["GET"], "/api/stats", .paired) { s, r in try await s.listeningStats(r) },
        Route(["POST"], "/api/subscriptions", .paired, body: .json) { s, r in try await s.subscribe(r) },
        Route(["GET"], "/api/refresh", .paired) { s, r in try await s.refreshStatus(r) },
        Route(["POST"], "/api/refresh", .paired, body: .json) { s, r in try await s.refreshAll(r) },
        Route(["GET"], "/api/opml", .paired) { s, r in try await s.exportOPML(r) },
        Route(["POST"], "/api/opml", .paired, body: .file) { s, r in try await s.importOPML(r) },
        Route(["GET"], "/api/playlists", .paired) { s, r in try await s.listPlaylists(r) },
        Route(["GET"], "/api/playlists/{id}", .paired) { s, r in try await s.onePlaylist(r) },
        Route(["GET"], "/api/downloads", .paired) { s, r in try await s.downloadsSnapshot(r) },
        Route(["GET"], "/api/rooms", .paired) { s, r in try await s.listRooms(r) },
        Route(["GET"], "/api/directory/search", .paired) { s, r in try await s.directorySearch(r) },
        Route(["GET"], "/api/directory/popular", .paired) { s, r in try await s.directoryPopular(r) },
        Route(["GET", "PUT"], "/api/directory/settings", .paired, body: .json) { s, r in
            r.method == "PUT" ? try await s.saveDirectorySettings(r) : try await s.directorySettings(r)
        },

        // Sync with phone podcast apps (Sync/: issue 16). `sync` rows take the sync account's Basic
        // credentials or its session cookie, from anyone (pairing or not), and JSON whatever its type.
        Route(["GET", "PUT", "DELETE"], "/api/sync", .host, body: .json) { s, r in
            switch r.method {
            case "PUT": try await s.saveSyncSettings(r)
            case "DELETE": try await s.removeSyncSettings(r)
            default: try await s.syncSettings(r)
            }
        },
        Route(["POST"], "/api/2/auth/{user}/login.json", .syncClient, body: .anyJSON) { s, r in try await s.gpodderLogin(r) },
        Route(["POST"], "/api/2/auth/{user}/logout.json", .syncClient, body: .anyJSON) { s, r in try await s.gpodderLogout(r) },
        Route(["GET"], "/api/2/devices/{user}.json", .syncClient) { s, r in try await s.gpodderDevices(r) },
        Route(["POST"], "/api/2/devices/{user}/{device}.json", .syncClient, body: .anyJSON) { s, r in try await s.gpodderUpdateDevice(r) },
        Route(["GET", "POST"], "/api/2/subscriptions/{user}/{device}.json", .syncClient, body: .anyJSON) { s, r in
            r.method == "POST" ? try await s.gpodderUploadSubscriptions(r) : try await s.gpodderSubscriptionChanges(r)
        },
        Route(["GET", "POST"], "/api/2/episodes/{user}.json", .syncClient, body: .anyJSON) { s, r in
            r.method == "POST" ? try await s.gpodderUploadEpisodeActions(r) : try await s.gpodderEpisodeActions(r)
        },
        Route(["GET", "POST"], "/api/2/sync-devices/{user}.json", .syncClient, body: .anyJSON) { s, r in try await s.gpodderSyncDevices(r) },
        Route(["GET", "PUT"], "/subscriptions/{user}/{device}.opml", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .opml, perDevice: true) },
        Route(["GET", "PUT"], "/subscriptions/{user}/{device}.json", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .json, perDevice: true) },
        Route(["GET", "PUT"], "/subscriptions/{user}/{device}.txt", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .txt, perDevice: true) },
        Route(["GET", "PUT"], "/subscriptions/{user}.opml", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .opml, perDevice: false) },
        Route(["GET", "PUT"], "/subscriptions/{user}.json", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .json, perDevice: false) },
        Route(["GET", "PUT"], "/subscriptions/{user}.txt", .syncClient, body: .anyJSON) { s, r in try await s.simpleList(r, .txt, perDevice: false) },
        Route(["GET"], "/index.php/apps/gpoddersync/subscriptions", .syncClient) { s, r in try await s.nextcloudSubscriptions(r) },
        Route(["POST"], "/index.php/apps/gpoddersync/subscription_change/create", .syncClient, body: .anyJSON) { s, r in
            try await s.nextcloudSubscriptionChange(r)
        },
        Route(["GET"], "/index.php/apps/gpoddersync/episode_action", .syncClient) { s, r in try await s.nextcloudEpisodeActions(r) },
        Route(["POST"], "/index.php/apps/gpoddersync/episode_action/create", .syncClient, body: .anyJSON) { s, r in
            try await s.nextcloudUploadEpisodeActions(r)
        },
        Route(["POST"], "/index.php/login/v2", .syncClient, body: .anyJSON) { s, r in try await s.nextcloudLoginStart(r) },
        Route(["POST"], "/index.php/login/v2/poll", .syncClient, body: .anyJSON) { s, r in try await s.nextcloudLoginPoll(r) },
        Route(["GET"], "/index.php/login/v2/flow/{token}", .anyone) { s, r in try await s.nextcloudLoginPage(r) },
        Route(["POST"], "/index.php/login/v2/grant", .anyone, body: .json) { s, r in try await s.nextcloudLoginGrant(r) },

        // The live socket: the transport upgrades GET /ws; a plain GET is told to upgrade.
        Route(["GET"], "/ws", .paired) { _, _ in throw HTTPError(426, "/ws is a WebSocket: connect with Upgrade: websocket") },

        // Artwork and files under Public/ (the pairing page's own files first: strangers get those).
        Route(["GET"], "/artwork/{key}/{file}", .paired) { s, r in try await s.artworkImage(r) },
        Route(["GET"], "/js/pair.js", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/js/sync-login.js", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/js/views/pairing.js", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/js/views/stranger-form.js", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/css/base.css", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/css/pairing.css", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/icons/earshot.svg", .anyone) { s, r in try s.staticFile(r) },
        Route(["GET"], "/js/{file...}", .paired) { s, r in try s.staticFile(r) },
        Route(["GET"], "/css/{file...}", .paired) { s, r in try s.staticFile(r) },
        Route(["GET"], "/icons/{file...}", .paired) { s, r in try s.staticFile(r) },
        Route(["GET"], "/media/{file...}", .paired) { s, r in try s.staticFile(r) },
        Route(["GET"], "/demo/{file...}", .paired) { s, r in try s.staticFile(r) },
    ]
}
