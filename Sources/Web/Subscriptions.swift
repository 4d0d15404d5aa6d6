import EarshotCore
import Feeds
import Foundation
import Library

/// Why a feed could not be added, with the HTTP status that fits.
public struct SubscriptionError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var message: String
    public var description: String { message }
}

/// Adding feeds to the library: fetch, parse, store.
public struct Subscriptions: Sendable {
    let store: LibraryStore

    public init(store: LibraryStore) { self.store = store }

    /// Fetches and stores the feed at `urlString`. The podcast is stored under the URL it was
    /// finally fetched from when a redirect moved it.
    public func subscribe(_ urlString: String) async throws(SubscriptionError) -> Podcast {
        let trimmed = urlString.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { throw SubscriptionError(status: 400, message: "not a feed address: \"\(trimmed)\" (use http:// or https://)") }
        let fetched: (content: FeedContent, finalURL: URL)
        do { fetched = try await FeedFetcher.fetchAndParse(url: url) } catch {
            // Fetch errors name the URL themselves; parse errors need it said.
            let reason = "\(error)"
            throw SubscriptionError(status: 502, message: reason.contains(url.absoluteString) ? reason : "could not add \(trimmed): \(reason)")
        }
        var content = fetched.content
        if content.title.trimmingCharacters(in: .whitespaces).isEmpty {
            // A show needs a name in every list: the feed's host is better than nothing.
            content.title = fetched.finalURL.host ?? trimmed
        }
        do { return try await store.subscribe(feedURL: fetched.finalURL.absoluteString, content: content) } catch {
            throw SubscriptionError(status: 500, message: "could not store the feed: \(error)")
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
        }
        let podcast = try await store.subscribe(feedURL: Self.demoFeedPath, content: content)
        try await store.setSetting(Self.demoSetting, "1")
        return podcast
    }
}
