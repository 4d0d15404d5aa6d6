import EarshotCore
import Foundation
import Library

/// Subscribes, one feed at a time in the background, to what phones added (a first sync of a phone
/// with 200 podcasts must not start 200 fetches at once, nor keep the phone waiting for them).
actor SyncSubscriber {
    typealias Work = @Sendable (String) async -> Void

    private var pending: [String] = []
    private var running = false
    private var work: Work = { _ in }

    /// What to do with each address (the server's subscribe-and-apply, set when it starts).
    func setWork(_ work: @escaping Work) { self.work = work }

    /// Queues feed addresses not queued already.
    func enqueue(_ urls: [String]) {
        for url in urls where !pending.contains(url) { pending.append(url) }
        guard !running, !pending.isEmpty else { return }
        running = true
        Task { await drain() }
    }

    /// Feeds still waiting (for tests and the settings view).
    var waiting: Int { pending.count + (running ? 1 : 0) }

    private func drain() async {
        while !pending.isEmpty {
            let url = pending.removeFirst()
            await work(url)
        }
        running = false
    }
}
