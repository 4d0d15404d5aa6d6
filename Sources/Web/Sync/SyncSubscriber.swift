import EarshotCore
import Foundation
import Library

/// Subscribes, one feed at a time in the background, to what phones added (a first sync of a phone
/// with 200 podcasts must not start 200 fetches at once, nor keep the phone waiting for them).
///
/// Until its fetch is done, an address a phone added is still one of the account's subscriptions:
/// the lists phones read include it, and a list sent back without it (or a removal) withdraws it.
/// Otherwise a phone that reads the list and sends it back at once (gPodder's simple sync) would
/// unsubscribe what it had just added.
actor SyncSubscriber {
    typealias Work = @Sendable (String) async -> Void

    private var pending: [String] = []
    private var current: String?
    private var withdrawn: Set<String> = []
    private var work: Work = { _ in }

    /// What to do with each address (the server's subscribe-and-apply, set when it starts).
    func setWork(_ work: @escaping Work) { self.work = work }

    /// Queues feed addresses not queued already (one withdrawn while it was fetched is wanted again).
    func enqueue(_ urls: [String]) {
        for url in urls {
            if url == current { withdrawn.remove(url); continue }
            if !pending.contains(url) { pending.append(url) }
        }
        guard current == nil, !pending.isEmpty else { return }
        Task { await drain() }
    }

    /// Takes these addresses out of the queue; the one being fetched is unsubscribed when its fetch
    /// ends. Returns those that were queued or being fetched.
    @discardableResult
    func withdraw(_ urls: [String]) -> [String] {
        var found: [String] = []
        for url in urls {
            if let index = pending.firstIndex(of: url) { pending.remove(at: index); found.append(url) }
            if url == current { withdrawn.insert(url); found.append(url) }
        }
        return found
    }

    /// Whether `url`, whose fetch just ended, was withdrawn meanwhile (asked once: the answer is taken).
    func takeWithdrawn(_ url: String) -> Bool { withdrawn.remove(url) != nil }

    /// Addresses added and not subscribed yet, the one being fetched first.
    var queued: [String] {
        (current.flatMap { withdrawn.contains($0) ? nil : [$0] } ?? []) + pending
    }

    /// Feeds still waiting (for tests and the settings view).
    var waiting: Int { queued.count }

    private func drain() async {
        guard current == nil else { return }
        while !pending.isEmpty {
            let url = pending.removeFirst()
            current = url
            await work(url)
            current = nil
            withdrawn.remove(url)
        }
    }
}
