import EarshotCore
import Feeds
import Foundation
import Library

/// Subscribes to every feed an OPML file lists: what `POST /api/opml` and `earshot import FILE` do.
///
/// The whole file is parsed first, so a broken one imports nothing. Feeds already in the library (compared
/// by normalized address) are counted, not fetched again; the others go through `Subscriptions`, a few at a
/// time, and each failure is collected with its reason instead of stopping the import.
public struct OPMLImport: Sendable {
    /// A feed that could not be added, and why (a sentence a user can act on).
    public struct Failure: Codable, Sendable, Equatable {
        public var url: String
        public var error: String

        public init(url: String, error: String) { self.url = url; self.error = error }
    }

    /// The answer to an import (docs/protocol.md): `found` = `added.count` + `existing` + `failed.count`.
    public struct Report: Encodable, Sendable {
        /// Distinct feed addresses in the file.
        public var found: Int
        /// The podcasts subscribed by this import, in the file's order.
        public var added: [Podcast]
        /// Feeds the library already held.
        public var existing: Int
        /// Feeds that could not be fetched or parsed, and addresses that are not http or https.
        public var failed: [Failure]
    }

    /// One feed's fate, as soon as it is known (for a caller that shows progress, like the CLI).
    public enum Outcome: Sendable {
        case added(Podcast)
        case existing(url: String)
        case failed(Failure)
    }

    /// How many feeds are fetched at once.
    public static let concurrency = 4

    private let subscriptions: Subscriptions
    private let store: LibraryStore

    public init(subscriptions: Subscriptions, store: LibraryStore) {
        self.subscriptions = subscriptions
        self.store = store
    }

    /// Imports the OPML file in `data`. Throws `OPMLError` (before touching the library) when the file is not
    /// an OPML subscription list, or the library's error when it cannot be read.
    public func run(_ data: Data, progress: @Sendable (Outcome) -> Void = { _ in }) async throws -> Report {
        let document = try OPMLParser.parse(data)
        let before = try await store.podcasts()
        let knownURLs = Set(before.map { OPMLParser.normalizedURL($0.feedURL) })
        var knownIDs = Set(before.map(\.id))

        var existing = 0
        var pending: [OPMLFeed] = []
        for feed in document.feeds {
            if knownURLs.contains(feed.url) {
                existing += 1
                progress(.existing(url: feed.url))
            } else {
                pending.append(feed)
            }
        }
        var failed = document.rejected.map { Failure(url: $0.url, error: "\($0.url) is \($0.reason).") }
        failed.forEach { progress(.failed($0)) }

        var outcomes = [Outcome?](repeating: nil, count: pending.count)
        await withTaskGroup(of: (Int, Result<(podcast: Podcast, isNew: Bool), SubscriptionError>).self) { group in
            var next = 0
            func startNext() {
                guard next < pending.count else { return }
                let index = next, url = pending[index].url, subscriptions = self.subscriptions
                next += 1
                group.addTask {
                    do throws(SubscriptionError) { return (index, .success(try await subscriptions.add(url))) }
                    catch { return (index, .failure(error)) }
                }
            }
            for _ in 0..<Self.concurrency { startNext() }
            while let (index, result) = await group.next() {
                let outcome: Outcome
                switch result {
                case .success(let (podcast, isNew)):
                    // Two addresses can lead to one feed (a redirect to a feed already held, or one feed listed
                    // under two addresses): only the first to store it added it.
                    outcome = isNew && knownIDs.insert(podcast.id).inserted ? .added(podcast) : .existing(url: pending[index].url)
                case .failure(let error):
                    outcome = .failed(Failure(url: pending[index].url, error: error.message))
                }
                outcomes[index] = outcome
                progress(outcome)
                startNext()
            }
        }

        // The report keeps the file's order, whatever order the fetches finished in.
        var added: [Podcast] = []
        for outcome in outcomes {
            switch outcome {
            case .added(let podcast)?: added.append(podcast)
            case .existing?: existing += 1
            case .failed(let failure)?: failed.append(failure)
            case nil: break  // unreachable: the group ran every pending feed
            }
        }
        return Report(found: document.found, added: added, existing: existing, failed: failed)
    }
}
