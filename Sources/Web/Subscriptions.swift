import EarshotCore
import FeedFetching
import Feeds
import Foundation
import Library

/// Why a feed could not be added, with the HTTP status that fits.
public struct SubscriptionError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var message: String
    public var description: String { message }

    /// A failure of the library behind a subscription: logged with its detail; the client is told
    /// what failed and, for a full disk or a read-only library, why (`reportedFailure`) — never an
    /// error's description (SQL, paths).
    static func internalFailure(_ what: String, _ error: any Error) -> SubscriptionError {
        SubscriptionError(status: 500, message: reportedFailure(what, error, area: "subscriptions"))
    }
}

/// Adding feeds to the library: fetch, parse, store; a feed already there is refreshed instead.
public struct Subscriptions: Sendable {
    let store: LibraryStore
    /// Fetches new feeds and refreshes known ones.
    public let refresher: FeedRefresher

    /// `refresher` defaults to one of its own (for the CLI); the server passes the one it runs.
    public init(store: LibraryStore, refresher: FeedRefresher? = nil) {
        self.store = store
        self.refresher = refresher ?? FeedRefresher(store: store)
    }

    /// Fetches and stores the feed at `urlString`, or refreshes it when it is already subscribed.
    public func subscribe(_ urlString: String) async throws(SubscriptionError) -> Podcast {
        try await add(urlString).podcast
    }

    /// Subscribes to the feed at `urlString`; `isNew` is false when it was already subscribed (at this
    /// address, at the address it permanently redirects to, or at its `itunes:new-feed-url`), in which
    /// case it has just been refreshed. Subscribing again to a feed unsubscribed earlier finds its
    /// episodes with their positions.
    ///
    /// The podcast is stored under the address given, or where permanent redirects (301, 308) lead;
    /// a temporary redirect is followed but not remembered. A feed that names a new address
    /// (`itunes:new-feed-url`) is stored under that one, fetched there next time.
    public func add(_ urlString: String) async throws(SubscriptionError) -> (podcast: Podcast, isNew: Bool) {
        let trimmed = urlString.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), FeedFetcher.isFetchable(url)
        else { throw SubscriptionError(status: 400, message: "not a feed address: \"\(trimmed)\" (use http:// or https://)") }
        // The feed's bytes and model are gone when this returns: their pages go back to the system.
        defer { MemoryTrim.giveBack() }
        if let existing = try await subscribed(trimmed) { return (try await refreshed(existing), false) }

        let response: FeedFetcher.Response
        do { response = try await refresher.fetch(url) } catch { throw Self.unreadable(error, trimmed, url) }
        let storedURL = response.permanentURL?.absoluteString ?? trimmed
        if storedURL != trimmed, let existing = try await subscribed(storedURL) { return (try await refreshed(existing), false) }
        if let spooled = response.spooled, let added = try await addStreaming(spooled, response, storedURL, trimmed, url) {
            return added
        }
        var content: FeedContent
        do { content = try response.parsed() } catch { throw Self.unreadable(error, trimmed, url) }
        let address = Self.settle(&content, response, storedURL: storedURL, typed: trimmed)
        if let existing = try await subscribed(address.feedURL) { return (try await refreshed(existing), false) }
        do {
            return (try await store.subscribe(feedURL: address.feedURL, content: content, etag: address.etag,
                                              lastModified: address.lastModified), true)
        } catch {
            throw SubscriptionError.internalFailure("could not store the feed \(address.feedURL)", error)
        }
    }

    /// A large feed (spooled to a file by the fetch) is stored while it is parsed: its 60,000 items are
    /// never all in memory. Nil when it names a new address the library already has: the caller then
    /// goes the ordinary way, which refreshes or revives that podcast.
    private func addStreaming(_ spooled: SpooledBody, _ response: FeedFetcher.Response, _ storedURL: String,
                              _ typed: String, _ url: URL) async throws(SubscriptionError) -> (podcast: Podcast, isNew: Bool)? {
        let file = spooled.url, base = response.finalURL
        do {
            guard let podcast = try await store.subscribe(feedURL: storedURL, parsing: { sink in
                do { return try FeedParser.parse(contentsOf: file, baseURL: base, into: sink) } catch let error as FeedError {
                    throw UnreadableFeed(error: error)
                }
            }, settle: { content in Self.settle(&content, response, storedURL: storedURL, typed: typed) })
            else { return nil }
            return (podcast, true)
        } catch let unreadable as UnreadableFeed {
            throw Self.unreadable(unreadable.error, typed, url)
        } catch {
            throw SubscriptionError.internalFailure("could not store the feed \(storedURL)", error)
        }
    }

    /// What a listener reads when the feed at `url` could not be fetched or parsed.
    private static func unreadable(_ error: any Error, _ typed: String, _ url: URL) -> SubscriptionError {
        // Fetch errors name the URL themselves; parse errors need it said.
        let reason = "\(error)"
        return SubscriptionError(status: 502, message: reason.contains(url.absoluteString) ? reason : "could not add \(typed): \(reason)")
    }

    /// Where a parsed feed is stored: under the address given, or where permanent redirects led
    /// (`storedURL`), or the address it names as its new one (`itunes:new-feed-url`, whose validators
    /// are not the old address's). A feed without a title is named after its host.
    private static func settle(_ content: inout FeedContent, _ response: FeedFetcher.Response, storedURL: String,
                               typed: String) -> LibraryStore.FeedAddress {
        if content.title.trimmingCharacters(in: .whitespaces).isEmpty {
            // A show needs a name in every list: the feed's host is better than nothing.
            content.title = response.finalURL.host ?? typed
        }
        if let moved = content.newFeedURL?.trimmingCharacters(in: .whitespacesAndNewlines), moved != storedURL,
           let target = URL(string: moved), FeedFetcher.isFetchable(target) {
            return LibraryStore.FeedAddress(feedURL: moved, etag: nil, lastModified: nil)
        }
        return LibraryStore.FeedAddress(feedURL: storedURL, etag: response.etag, lastModified: response.lastModified)
    }

    /// Refreshes every subscribed feed and returns when all are done: what `earshot refresh` runs.
    /// `progress` hears each feed's start and finish; `problems` are the podcasts left with an error
    /// or gone, each with its message. It takes over the refresher's listeners: meant for a
    /// `Subscriptions` with a refresher of its own, not the server's.
    public func refreshAll(progress: @escaping @Sendable (RefreshStatus) -> Void = { _ in })
        async throws -> (status: RefreshStatus, problems: [Podcast]) {
        await refresher.observe(progress: progress, libraryChanged: {})
        let status = try await refresher.refreshAllAndWait()
        return (status, try await store.podcasts().filter { $0.status != .ok })
    }

    private func subscribed(_ feedURL: String) async throws(SubscriptionError) -> Podcast? {
        do { return try await store.podcast(feedURL: feedURL) } catch {
            throw SubscriptionError.internalFailure("could not read the library", error)
        }
    }

    /// Refreshes a podcast already subscribed and reads it back (with the refresh's status and error).
    private func refreshed(_ podcast: Podcast) async throws(SubscriptionError) -> Podcast {
        do {
            _ = try await refresher.refreshAndWait(podcastID: podcast.id)
            return try await store.podcast(id: podcast.id) ?? podcast
        } catch {
            throw SubscriptionError.internalFailure("could not refresh \(podcast.feedURL)", error)
        }
    }

    /// The address under which the bundled demo feed is stored: a root-relative path, so it
    /// means "this server" whatever port it runs on.
    public static let demoFeedPath = "/demo/feed.xml"
    static let demoSetting = "demo.subscribed"

    /// Stores the bundled demo podcast (Public/demo/feed.xml) on first start, and refreshes it on
    /// later starts while it is still subscribed. Its media URLs stay root-relative ("/demo/…").
    public func subscribeDemo(publicDirectory: URL) async throws -> Podcast? {
        let alreadyOffered = try await store.setting(Self.demoSetting) != nil
        let existing = try await store.podcast(feedURL: Self.demoFeedPath)
        if alreadyOffered && existing == nil { return nil } // the listener removed it: respect that
        let file = publicDirectory.appendingPathComponent("demo/feed.xml")
        let data = try Data(contentsOf: file)
        // Parse against a placeholder origin, then make every URL of ours root-relative again.
        let origin = "http://earshot.invalid"
        var content = try FeedParser.parse(data, baseURL: URL(string: origin + Self.demoFeedPath)!)
        func local(_ s: String?) -> String? { s.map { $0.hasPrefix(origin) ? String($0.dropFirst(origin.count)) : $0 } }
        content.artworkURL = local(content.artworkURL)
        for i in content.items.indices {
            content.items[i].enclosureURL = local(content.items[i].enclosureURL) ?? ""
            content.items[i].artworkURL = local(content.items[i].artworkURL)
            for j in content.items[i].details.transcripts.indices {
                content.items[i].details.transcripts[j].url = local(content.items[i].details.transcripts[j].url) ?? ""
            }
        }
        let podcast = try await store.subscribe(feedURL: Self.demoFeedPath, content: content)
        try await store.setSetting(Self.demoSetting, "1")
        return podcast
    }
}
