import EarshotCore
import FeedFetching
import Feeds
import Foundation
import Library

extension FeedRefresher {
    /// Refreshes one feed: a conditional GET with the stored validators, then
    /// - `304`: nothing rewritten, the status turns ok;
    /// - a feed: parsed and stored (episodes merged, positions kept) with the new validators;
    /// - a permanent redirect (every hop 301/308) moves the subscription to where the feed now is,
    ///   keeping the validators; `itunes:new-feed-url` moves it too, to be fetched there next time
    ///   (neither moves onto an address another podcast already has);
    /// - 404 or 410: status `gone`; any other failure: status `error`; both with a message a
    ///   listener can act on, and the episodes already stored stay.
    nonisolated func refreshFeed(_ feed: FeedToRefresh) async -> FeedRefreshOutcome {
        let store = self.store
        func fail(_ status: Podcast.Status, _ message: String) async -> FeedRefreshOutcome {
            // If even the failure cannot be recorded, the library is in trouble: the outcome still says why.
            do { try await store.markFailed(podcastID: feed.podcastID, status: status, message: message) } catch {
                Log.error("refresh", "could not store why \(feed.feedURL) failed (\(message)): \(String(reflecting: error))")
            }
            return .failed(status, message)
        }
        // The bundled demo ("/demo/feed.xml") is read from disk at start; there is nothing to fetch.
        if Self.isBundled(feed.feedURL) { return .skipped }
        guard let url = URL(string: feed.feedURL), FeedFetcher.isFetchable(url) else {
            return await fail(.error, "The feed address \(feed.feedURL) is not an http or https URL, so it cannot be refreshed.")
        }
        let response: FeedFetcher.Response
        do {
            response = try await fetch(url, etag: feed.etag, lastModified: feed.lastModified)
        } catch let error as FeedError {
            let (status, message) = Self.failureMessage(error, url: feed.feedURL)
            return await fail(status, message)
        } catch {
            return await fail(.error, "Could not refresh \(feed.feedURL): \(error)")
        }

        do {
            if response.notModified {
                try await store.markNotModified(podcastID: feed.podcastID, etag: response.etag,
                                                lastModified: response.lastModified)
                return .unchanged(movedTo: try await Self.followPermanentRedirect(response, feed, store: store))
            }
            let content: FeedContent
            do {
                guard let stored = try await parseAndStore(response, for: feed) else { return .skipped }
                content = stored
            } catch let unreadable as UnreadableFeed {
                return await fail(.error, "The feed at \(feed.feedURL) could not be read: \(unreadable.error)")
            }
            var movedTo = try await Self.followPermanentRedirect(response, feed, store: store)
            if let newURL = content.newFeedURL?.trimmingCharacters(in: .whitespacesAndNewlines),
               newURL != (movedTo ?? feed.feedURL), let target = URL(string: newURL), FeedFetcher.isFetchable(target),
               try await store.moveFeed(podcastID: feed.podcastID, to: newURL, keepingValidators: false) {
                movedTo = newURL
            }
            return .updated(movedTo: movedTo)
        } catch {
            // The podcast's error is shown to every client: the detail (SQL, paths) goes to the log only.
            Log.error("refresh", "could not store the refreshed feed \(feed.feedURL): \(String(reflecting: error))")
            if let reason = plainReason(of: error) {
                return await fail(.error, "Could not store the refreshed feed \(feed.feedURL): \(reason). Its episodes are as they were; the next refresh tries again.")
            }
            return await fail(.error, "Could not store the refreshed feed \(feed.feedURL) (the server's log says why).")
        }
    }

    /// Parses and stores a fetched feed: a large one (spooled to a file) while it is read, its items
    /// merged batch by batch (a 60,000-item feed is never held whole), a small one parsed first. The
    /// feed as stored (a spooled one's without its items), or nil when the podcast was unsubscribed
    /// meanwhile. A feed that cannot be parsed throws `UnreadableFeed` and leaves the podcast as it was.
    private nonisolated func parseAndStore(_ response: FeedFetcher.Response, for feed: FeedToRefresh) async throws -> FeedContent? {
        let untitled = feed.title
        let settle: @Sendable (inout FeedContent) -> Void = { content in
            if content.title.trimmingCharacters(in: .whitespaces).isEmpty { content.title = untitled }
        }
        if let spooled = response.spooled {
            let file = spooled.url, base = response.finalURL
            return try await store.storeRefresh(podcastID: feed.podcastID, parsing: { sink in
                do { return try FeedParser.parse(contentsOf: file, baseURL: base, into: sink) } catch {
                    throw UnreadableFeed(error: error)
                }
            }, settle: settle, etag: response.etag, lastModified: response.lastModified)
        }
        var content: FeedContent
        do { content = try response.parsed() } catch { throw UnreadableFeed(error: error) }
        settle(&content)
        return try await store.storeRefresh(podcastID: feed.podcastID, content: content, etag: response.etag,
                                            lastModified: response.lastModified) ? content : nil
    }

    /// Whether `feedURL` is one of this server's own files (root-relative, like the demo's).
    static func isBundled(_ feedURL: String) -> Bool { feedURL.hasPrefix("/") }

    /// Fetches `url` with the fetcher's limits and the refresher's overall `deadline`.
    public nonisolated func fetch(_ url: URL, etag: String? = nil, lastModified: String? = nil) async throws -> FeedFetcher.Response {
        let fetcher = self.fetcher, deadline = self.deadline
        return try await withThrowingTaskGroup(of: FeedFetcher.Response?.self) { group in
            group.addTask { try await fetcher.fetch(url, etag: etag, lastModified: lastModified) }
            group.addTask {
                try await Task.sleep(for: .seconds(deadline))
                return nil
            }
            defer { group.cancelAll() }
            guard let response = try await group.next() ?? nil else {
                throw FeedError.network(url: url.absoluteString, reason: "no complete answer within \(Int(deadline)) s")
            }
            return response
        }
    }

    /// Moves the subscription when every redirect on the way was permanent; returns the new URL if it moved.
    private static func followPermanentRedirect(_ response: FeedFetcher.Response, _ feed: FeedToRefresh,
                                                store: LibraryStore) async throws -> String? {
        guard let permanent = response.permanentURL?.absoluteString, permanent != feed.feedURL,
              try await store.moveFeed(podcastID: feed.podcastID, to: permanent, keepingValidators: true)
        else { return nil }
        return permanent
    }

    /// The status and sentence a failed fetch leaves on the podcast.
    static func failureMessage(_ error: FeedError, url: String) -> (Podcast.Status, String) {
        switch error {
        case .httpStatus(let code, let at) where code == 404 || code == 410:
            let said = code == 410 ? "410 Gone" : "404 Not Found"
            return (.gone, "The feed is gone: \(at) answered \(said). The publisher may have moved or ended the show; "
                + "subscribe to its new address, or unsubscribe.")
        case .httpStatus(let code, let at):
            return (.error, "The feed's server answered HTTP \(code) for \(at); Earshot will try again at the next refresh.")
        default:
            return (.error, error.description)
        }
    }
}

/// A fetched feed that could not be parsed, said apart from a library that could not store it (thrown
/// through the library's parse-and-store calls by refreshes and subscriptions).
struct UnreadableFeed: Error {
    let error: any Error
}
