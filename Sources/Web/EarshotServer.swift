import Artwork
import Downloads
import EarshotCore
import Foundation
import Library
import Mustache
import Playback

/// The web face of Earshot: routes HTTP to the API, pages and files, turns socket frames into
/// engine commands, and broadcasts every engine message to every client.
public final class EarshotServer: WebHandler, @unchecked Sendable {
    // @unchecked: every stored property is immutable after init except `transport`'s own
    // locked state and `libraryVersion`, which is atomic behind `versionLock`.
    public let configuration: ServerConfiguration
    let store: LibraryStore
    let engine: PlaybackEngine
    /// Offline copies (nil: downloads are off, and `download` commands say so).
    let downloads: DownloadManager?
    let files: StaticFiles
    /// Feed artwork kept in sizes under the data folder (`artwork/` beside the library file).
    let artwork: ArtworkCache
    let templates: MustacheLibrary
    let transport: LWSServer
    /// Paired devices' token hashes and the open pairing code (EarshotServer+Pairing.swift).
    let devices = DeviceRegistry()
    let pairingDesk = PairingDesk()
    /// Directory settings and the artwork of recent results (Handlers/EarshotServer+Directory.swift).
    let directory: DirectoryDesk
    let subscriptions: Subscriptions
    /// The sync API's door and its background subscriber (Sync/: issue 16).
    let syncDesk: SyncDesk
    let syncSubscriber = SyncSubscriber()
    /// Snapcast's rooms (Rooms/: issue 17), nil when there is no Snapcast.
    let roomsDesk: RoomsDesk?
    /// Refreshes feeds on request and every `refreshSchedule` (nil: only on request).
    public let refresher: FeedRefresher
    let refreshSchedule: RefreshSchedule?
    private let versionLock = NSLock()
    private var _libraryVersion: UInt64 = 1
    /// Changes with each asset set, so a new release busts cached CSS and JS.
    let assetVersion = String(UInt64(Date().timeIntervalSince1970), radix: 36)

    public init(configuration: ServerConfiguration, store: LibraryStore, engine: PlaybackEngine,
                downloads: DownloadManager? = nil, refreshSchedule: RefreshSchedule? = RefreshSchedule()) throws {
        self.configuration = configuration
        self.store = store
        self.engine = engine
        self.downloads = downloads
        files = StaticFiles(root: configuration.publicDirectory)
        directory = DirectoryDesk(store: store, environment: configuration.podcastIndexCredentials)
        artwork = Self.makeArtworkCache(store: store, directory: directory) // EarshotServer+Artwork.swift
        templates = try MustacheLibrary(directory: configuration.templatesDirectory)
        refresher = FeedRefresher(store: store)
        self.refreshSchedule = refreshSchedule
        subscriptions = Subscriptions(store: store, refresher: refresher)
        syncDesk = SyncDesk(store: store)
        roomsDesk = configuration.rooms.map(RoomsDesk.init)
        transport = Self.makeTransport(configuration) // EarshotServer+Access.swift: --lan, Host allowlist
    }

    /// The port actually bound (differs from the configuration when that said 0).
    public var port: Int { transport.port }

    /// Binds, starts serving and forwards every engine message to every client.
    public func start() async throws {
        try await startPairing() // EarshotServer+Pairing.swift: devices loaded, admissions judged
        try transport.start(port: configuration.port, handler: self)
        let transport = self.transport
        await engine.addListener { message in transport.send(message) }
        await startDownloads() // EarshotServer+Downloads.swift
        await startRefreshing()
        await syncSubscriber.setWork { [weak self] url in await self?.subscribeFromPhone(url) }
        await startRooms()
    }

    /// Stops serving and the periodic refresh. The engine is left to its owner.
    public func stop() {
        transport.stop()
        if let desk = roomsDesk {
            desk.managed?.stop(wait: false) // SIGTERM now; the process's end takes it down for good
            desk.stopPump()
            Task { await desk.rooms.stop() }
        }
        let refresher = self.refresher
        Task { await refresher.stopPeriodic() }
    }

    var libraryVersion: UInt64 {
        versionLock.lock(); defer { versionLock.unlock() }
        return _libraryVersion
    }

    /// Tells every client that lists changed.
    func libraryChanged() {
        versionLock.lock(); _libraryVersion += 1; let version = _libraryVersion; versionLock.unlock()
        transport.send(.library(version: version))
        if let downloads { Task { await downloads.libraryChanged() } } // auto-download, cleanup, titles
    }

    // MARK: - WebHandler

    /// Every request goes through the route table (Routing/RouteTable.swift).
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await dispatch(request)
    }

    /// A new client gets the current state and downloads, queued on the engine's and the download
    /// manager's own turn: it is already among the clients every change goes to, and a snapshot
    /// queued after a change published meanwhile would leave it with the older state.
    public func socketOpened(_ client: ClientID) async {
        let transport = self.transport
        await engine.sendSnapshot { transport.send($0, to: client) }
        if let downloads { await downloads.sendMessage { transport.send(.downloads($0), to: client) } }
    }

    public func socketReceived(_ text: String, from client: ClientID) async {
        let (id, decoded) = ClientCommand.decode(text)
        switch decoded {
        case .failure(let error):
            transport.send(.error(id: id, message: error.message), to: client)
        case .success(let command):
            do {
                try await perform(command) { transport.send(.ack(id: id), to: client) }
            } catch {
                transport.send(.error(id: id, message: error.message), to: client)
            }
        }
    }

    /// Carries out one command from any client (a socket, MPRIS): the engine, the download
    /// manager or the Inbox, and tells every client what changed beyond the player. `done` runs
    /// once it is carried out and before those messages (a socket's `ack` comes first: clients
    /// refetch lists after their own command is acknowledged).
    public func perform(_ command: ClientCommand, done: () -> Void = {}) async throws(CommandError) {
        // Playing or queueing takes an episode out of the Inbox: the lists change then.
        let leavesInbox: Bool
        switch command {
        case .play(let id), .queueAdd(let id, _): leavesInbox = (try? await store.isInInbox(episodeID: id)) ?? false
        default: leavesInbox = false
        }
        switch command {
        case .download(let request): try await download(request)
        case .inbox(let request): try await inbox(request)
        case .room(let request): try await room(request)
        default: try await engine.handle(command)
        }
        done()
        switch command { // played state and the Inbox show in every list
        case .mark, .inbox: libraryChanged()
        default: if leavesInbox { libraryChanged() }
        }
        if case .playlist(let edit) = command, edit.changesPlaylists { playlistsChanged() }
    }

    public func socketRejectedFrame(_ reason: String, from client: ClientID) async {
        transport.send(.error(id: .null, message: reason), to: client)
    }

    public func socketClosed(_ client: ClientID) async {}
}
