import EarshotCore
import Feeds
import Foundation
import Library

/// gpodder.net's API v2, the part sync clients use (AntennaPod, gPodder's mygpoclient, Kasts), and
/// its simple API's subscription lists. Earshot keeps one library: every device of the account is
/// synchronized with it (gpodder.net's "sync group" of all devices), so a device's subscriptions are
/// the library's. docs/protocol.md "Sync" lists the rows; what clients need of each is in comments.
extension EarshotServer {
    /// Authenticates a sync request (SyncDesk), then answers with `body`, adding the session cookie
    /// a Basic login earns.
    func syncAnswer(_ request: HTTPRequest, user: Bool = true,
                    _ body: (SyncDesk.Caller) async throws -> HTTPResponse) async throws -> HTTPResponse {
        let caller = try await syncDesk.authenticate(request, pathUser: user ? request.parameters["user"] : nil)
        var response = try await body(caller)
        if let cookie = caller.setCookie { response.headers.append(("set-cookie", cookie)) }
        return response
    }

    /// A JSON answer (always 200: AntennaPod takes nothing else as success).
    static func syncJSON(_ value: JSONValue) -> HTTPResponse { .jsonText(Data(value.jsonBytes())) }

    /// An empty 200: mygpoclient's device update and simple PUT count only an empty body as success.
    static let syncEmpty = HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Data())

    /// The body as JSON, whatever its Content-Type (mygpoclient posts it as a form).
    static func syncBody(_ request: HTTPRequest, hint: String) throws(HTTPError) -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: request.body) } catch { throw HTTPError.badRequest(hint) }
    }

    /// The `{device}` of a path, checked, or 400.
    static func syncDevice(_ request: HTTPRequest) throws(HTTPError) -> String {
        guard let id = request.parameters["device"].flatMap(SyncDeviceID.clean) else {
            throw HTTPError.badRequest("a device id is letters, digits, dots, dashes and underscores")
        }
        guard id != LibraryStore.syncDeviceID else {
            throw HTTPError.badRequest("\"\(id)\" is Earshot's own device id: choose another for this device")
        }
        return id
    }

    static func syncSince(_ request: HTTPRequest) throws(HTTPError) -> Double {
        guard let since = SyncTime.since(request.query["since"]) else { throw HTTPError.badRequest("since must be a Unix time in seconds") }
        return since
    }

    // MARK: Login

    /// `POST /api/2/auth/{user}/login.json`: Basic credentials → 200 and the session cookie
    /// (AntennaPod sends credentials only here and goes on with the cookie).
    func gpodderLogin(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in Self.syncEmpty }
    }

    /// `POST /api/2/auth/{user}/logout.json`: the session ends (200 even without one, as gpodder.net).
    func gpodderLogout(_ request: HTTPRequest) async throws -> HTTPResponse {
        await syncDesk.logout(request)
        var response = Self.syncEmpty
        response.headers.append(("set-cookie", SyncCredentials.clearSessionCookie))
        return response
    }

    // MARK: Devices

    static let deviceTypes: Set<String> = ["desktop", "laptop", "mobile", "server", "other"]

    /// `GET /api/2/devices/{user}.json`: `[{id, caption, type, subscriptions}]`, every key always there.
    func gpodderDevices(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let count = try await store.subscribedFeedURLs().count
            let devices = try await store.syncDevices().map { device -> JSONValue in
                .object(["id": .string(device.id), "caption": .string(device.caption),
                         "type": .string(Self.deviceTypes.contains(device.type) ? device.type : "other"),
                         "subscriptions": .number(Double(count))])
            }
            return Self.syncJSON(.array(devices))
        }
    }

    /// `POST /api/2/devices/{user}/{device}.json` `{caption?, type?}`: registers or updates; 200, empty.
    func gpodderUpdateDevice(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let device = try Self.syncDevice(request)
            var caption: String?
            var type: String?
            if !request.body.isEmpty {
                guard case .object(let fields) = try Self.syncBody(request, hint: "send {\"caption\": \"…\", \"type\": \"mobile\"}") else {
                    throw HTTPError.badRequest("send {\"caption\": \"…\", \"type\": \"mobile\"}")
                }
                caption = fields["caption"]?.string.map { String($0.prefix(200)) }
                type = fields["type"]?.string
                if let type, !Self.deviceTypes.contains(type) {
                    throw HTTPError.badRequest("type is one of desktop, laptop, mobile, server, other")
                }
            }
            try await store.registerSyncDevice(id: device, caption: caption, type: type, at: Date().timeIntervalSince1970)
            return Self.syncEmpty
        }
    }

    // MARK: Subscriptions

    /// `GET /api/2/subscriptions/{user}/{device}.json?since=`: `{add, remove, timestamp}`. The first
    /// sync (`since` 0) gets no removals: a phone syncing for the first time must not lose feeds
    /// because the library once dropped them.
    func gpodderSubscriptionChanges(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let device = try Self.syncDevice(request)
            return try await subscriptionChangesAnswer(since: Self.syncSince(request), device: device)
        }
    }

    func subscriptionChangesAnswer(since: Double, device: String) async throws -> HTTPResponse {
        let now = Date().timeIntervalSince1970
        try await store.touchSyncDevice(id: device, at: now)
        let changes = try await store.subscriptionChanges(since: since)
        return Self.syncJSON(.object([
            "add": .array(changes.add.map(JSONValue.string)),
            "remove": .array(since > 0 ? changes.remove.map(JSONValue.string) : []),
            "timestamp": .number(now.rounded(.down)),
        ]))
    }

    /// `POST /api/2/subscriptions/{user}/{device}.json {add, remove}`: `{timestamp, update_urls}`.
    func gpodderUploadSubscriptions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let device = try Self.syncDevice(request)
            let upload = try await receiveSubscriptionUpload(request, device: device)
            return Self.syncJSON(.object([
                "timestamp": .number(Date().timeIntervalSince1970.rounded(.down)),
                "update_urls": .array(upload.updatedURLs.map { .array($0.map(JSONValue.string)) }),
            ]))
        }
    }

    func receiveSubscriptionUpload(_ request: HTTPRequest, device: String) async throws -> SubscriptionUpload {
        let body = try Self.syncBody(request, hint: SubscriptionUploadError.shape.description)
        let upload: SubscriptionUpload
        do { upload = try SubscriptionUpload.decode(body) } catch { throw HTTPError.badRequest(error.description) }
        try await store.touchSyncDevice(id: device, at: Date().timeIntervalSince1970)
        try await receiveSubscriptionChanges(add: upload.add, remove: upload.remove, from: device)
        return upload
    }

    // MARK: Episode actions

    /// `GET /api/2/episodes/{user}.json?since=&podcast=&device=&aggregated=`: `{actions, timestamp}`.
    /// `since` is when the server received them (gpodder.net's documented meaning); Earshot's own
    /// listening comes as device `earshot`.
    func gpodderEpisodeActions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let device = request.query["device"].flatMap { $0.isEmpty ? nil : $0 }
            if let device, SyncDeviceID.clean(device) == nil { throw HTTPError.badRequest("device is not a device id") }
            let podcast = request.query["podcast"].flatMap { $0.isEmpty ? nil : $0 }
            let aggregated = ["true", "1", "yes"].contains(request.query["aggregated"]?.lowercased() ?? "")
            return try await episodeActionsAnswer(since: Self.syncSince(request), podcast: podcast, device: device, aggregated: aggregated)
        }
    }

    func episodeActionsAnswer(since: Double, podcast: String? = nil, device: String? = nil, aggregated: Bool = false) async throws -> HTTPResponse {
        let now = Date().timeIntervalSince1970
        let actions = try await store.episodeActions(since: since, podcast: podcast, device: device, aggregated: aggregated)
        return Self.syncJSON(.object(["actions": .array(actions.map(\.json)), "timestamp": .number(now.rounded(.down))]))
    }

    /// `POST /api/2/episodes/{user}.json [actions]`: `{timestamp, update_urls}`. One unreadable action
    /// refuses the whole upload (400 naming it), nothing stored.
    func gpodderUploadEpisodeActions(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let timestamp = try await receiveEpisodeActionUpload(request, device: "unknown-device")
            return Self.syncJSON(.object(["timestamp": .number(Double(timestamp)), "update_urls": .array([])]))
        }
    }

    func receiveEpisodeActionUpload(_ request: HTTPRequest, device: String) async throws -> Int {
        let body = try Self.syncBody(request, hint: "send a JSON array of episode actions")
        let actions: [EpisodeAction]
        do { actions = try EpisodeAction.decodeUpload(body) } catch { throw HTTPError.badRequest(error.description) }
        return try await receiveEpisodeActions(actions, from: device)
    }

    // MARK: Sync groups

    /// `GET|POST /api/2/sync-devices/{user}.json`: Earshot keeps one library, so every device is in
    /// one group, always. A POST is read and checked (unknown devices are 404, as gpodder.net) but
    /// cannot split the group: the answer says how things stand.
    func gpodderSyncDevices(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let ids = try await store.syncDevices().map(\.id).sorted()
            if request.method == "POST" {
                guard case .object(let fields) = try Self.syncBody(request, hint: "send {\"synchronize\": [[ids]], \"stop-synchronize\": [ids]}")
                else { throw HTTPError.badRequest("send {\"synchronize\": [[ids]], \"stop-synchronize\": [ids]}") }
                var named: [String] = []
                if case .array(let groups)? = fields["synchronize"] {
                    for case .array(let group) in groups { named += group.compactMap(\.string) }
                }
                if case .array(let stops)? = fields["stop-synchronize"] { named += stops.compactMap(\.string) }
                if let unknown = named.first(where: { !ids.contains($0) }) { throw HTTPError.notFound("no device \(unknown)") }
            }
            return Self.syncJSON(.object([
                "synchronized": .array(ids.count >= 2 ? [.array(ids.map(JSONValue.string))] : []),
                "not-synchronized": .array(ids.count >= 2 ? [] : ids.map(JSONValue.string)),
            ]))
        }
    }

    // MARK: Simple API

    /// The simple API's formats.
    enum ListFormat: String { case opml, json, txt }

    /// The simple API's rows: GET lists, PUT replaces.
    func simpleList(_ request: HTTPRequest, _ format: ListFormat, perDevice: Bool) async throws -> HTTPResponse {
        request.method == "PUT" ? try await simplePutSubscriptions(request, format, perDevice: perDevice)
            : try await simpleSubscriptions(request, format, perDevice: perDevice)
    }

    /// `GET /subscriptions/{user}.{opml|json|txt}` (every subscription; JSON as podcast objects) and
    /// `GET /subscriptions/{user}/{device}.{…}` (JSON as a list of addresses).
    func simpleSubscriptions(_ request: HTTPRequest, _ format: ListFormat, perDevice: Bool) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            if perDevice { try await store.touchSyncDevice(id: try Self.syncDevice(request), at: Date().timeIntervalSince1970) }
            // Web feeds only: the bundled demo is a path of this server, no use to a phone.
            var podcasts = try await store.podcasts().filter { SubscriptionUpload.cleanURL($0.feedURL) == $0.feedURL }
            // Added by a phone and still being fetched: the account's already (by its address alone).
            let known = Set(podcasts.map(\.feedURL))
            podcasts += await syncSubscriber.queued.filter { !known.contains($0) }.map { Podcast(id: 0, feedURL: $0, title: "") }
            switch format {
            case .txt:
                return HTTPResponse(status: 200, body: Data(podcasts.map { $0.feedURL + "\n" }.joined().utf8))
            case .json where perDevice:
                return Self.syncJSON(.array(podcasts.map { .string($0.feedURL) }))
            case .json:
                return Self.syncJSON(.array(podcasts.map { podcast in
                    .object(["url": .string(podcast.feedURL), "title": .string(podcast.title), "author": .string(podcast.author),
                             "description": .string(podcast.summary), "subscribers": .number(0),
                             "logo_url": podcast.artworkURL.map(JSONValue.string) ?? .null,
                             "website": podcast.link.map(JSONValue.string) ?? .null])
                }))
            case .opml:
                let text = try OPMLExport.render(podcasts, templates: templates)
                return HTTPResponse(status: 200, contentType: OPMLExport.contentType, body: Data(text.utf8))
            }
        }
    }

    /// `PUT /subscriptions/{user}/{device}.{…}` (and `/subscriptions/{user}.{…}`): the whole list;
    /// what is missing is unsubscribed, what is new subscribed. 200 with an empty body.
    func simplePutSubscriptions(_ request: HTTPRequest, _ format: ListFormat, perDevice: Bool) async throws -> HTTPResponse {
        try await syncAnswer(request) { _ in
            let device = perDevice ? try Self.syncDevice(request) : "simple-api"
            let urls: [String]
            switch format {
            case .txt:
                urls = String(decoding: request.body, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            case .json:
                guard case .array(let items) = try Self.syncBody(request, hint: "send a JSON array of feed addresses"),
                      items.allSatisfy({ $0.string != nil }) else { throw HTTPError.badRequest("send a JSON array of feed addresses") }
                urls = items.compactMap(\.string)
            case .opml:
                do { urls = try OPMLParser.parse(request.body).feeds.map(\.url) } catch { throw HTTPError.badRequest("not an OPML file: \(error)") }
            }
            let wanted = SubscriptionUpload.cleanList(urls)
            // Compared by podcast, not by text: a podcast listed under an old address of its own stays.
            var add: [String] = []
            var kept = Set<Int64>()
            for url in wanted {
                if let id = try await store.podcastID(feedURL: url) { kept.insert(id) } else { add.append(url) }
            }
            var remove: [String] = []
            for url in try await store.subscribedFeedURLs() {
                if let id = try await store.podcastID(feedURL: url), !kept.contains(id) { remove.append(url) }
            }
            // Added by a phone, not fetched yet, and not in the list now: withdrawn.
            remove += await syncSubscriber.queued.filter { !wanted.contains($0) }
            try await store.touchSyncDevice(id: device, at: Date().timeIntervalSince1970)
            try await receiveSubscriptionChanges(add: add, remove: remove, from: device)
            return Self.syncEmpty
        }
    }
}
