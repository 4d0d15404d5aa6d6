import EarshotCore
import Foundation
import Library

/// What phones' uploads do to the library (issue 16): episode actions move positions and marks
/// (`SyncDecision` decides; the newest word wins, the speakers win while they play), subscriptions
/// added on a phone are fetched here in the background, removed ones are unsubscribed.
extension EarshotServer {
    /// Keeps and applies an upload of episode actions from `device`. Times in the future are capped
    /// at now (and logged); an action without a device is the uploader's. Returns the answer's timestamp.
    func receiveEpisodeActions(_ uploaded: [EpisodeAction], from device: String) async throws -> Int {
        let now = Date().timeIntervalSince1970
        var actions: [EpisodeAction] = []
        var matches: [(action: EpisodeAction, episodeID: Int64?)] = []
        for var action in uploaded {
            let (time, skew) = SyncClock.cap(action.timestamp, now: now)
            if let skew {
                Log.warning("sync", "\(action.device ?? device)'s clock is \(Int(skew)) s ahead: its action on \(action.episode) counts as now")
            }
            action.timestamp = time
            // No device, a malformed one, or Earshot's own id (no phone speaks for the speakers): the uploader's.
            if action.device.flatMap(SyncDeviceID.clean) == nil || action.device == LibraryStore.syncDeviceID { action.device = device }
            actions.append(action)
            let episode = try await store.matchEpisode(podcast: action.podcast, episode: action.episode, guid: action.guid)
            matches.append((action, episode?.id))
        }
        _ = try await store.storeEpisodeActions(matches, device: device, receivedAt: now)
        for other in Set(actions.compactMap(\.device)) where other != device { try await store.touchSyncDevice(id: other, at: now) }
        var moved = false
        // In the order they happened: the last word on an episode is applied last.
        for (action, episodeID) in matches.sorted(by: { ($0.action.timestamp ?? 0) < ($1.action.timestamp ?? 0) }) {
            guard let episodeID else { continue }
            if try await apply(action, to: episodeID) { moved = true }
        }
        if moved { libraryChanged() }
        return Int(now)
    }

    /// Applies one action to the episode it was matched to (read again: an earlier action of the same
    /// upload may have moved it). Returns whether the library changed.
    @discardableResult
    func apply(_ action: EpisodeAction, to episodeID: Int64) async throws -> Bool {
        guard action.kind == .play || action.kind == .new, let episode = try await store.syncedEpisode(id: episodeID) else { return false }
        let local = SyncDecision.Local(position: episode.position, played: episode.played, changedAt: episode.changedAt,
                                       duration: episode.duration, playingHere: await engine.isPlayingHere(episode.id))
        let time = action.timestamp ?? Date().timeIntervalSince1970
        switch SyncDecision.decide(action, at: time, local: local, margin: await engine.syncPlayedMargin) {
        case .keep(let reason):
            Log.debug("sync", "\(action.kind.rawValue) of \(action.episode) from \(action.device ?? "?") kept the episode as it was: \(reason.rawValue)")
            return false
        case .move(let position, let played):
            try await store.applySyncedProgress(episodeID: episode.id, position: position, played: played, at: time,
                                                device: action.device ?? "phone")
            await engine.followSyncedProgress(episodeID: episode.id, position: position, played: played)
            Log.info("sync", "\(action.device ?? "a phone") moved episode \(episode.id) to \(Int(position)) s\(played ? " (played)" : "")")
            return true
        }
    }

    /// Carries out a device's subscription changes: removals at once, additions in the background.
    func receiveSubscriptionChanges(add: [String], remove: [String], from device: String) async throws {
        var removed = false
        for url in remove {
            guard let id = try await store.podcastID(feedURL: url) else { continue }
            if try await store.unsubscribe(podcastID: id) {
                removed = true
                Log.info("sync", "\(device) unsubscribed \(url)")
            }
        }
        if removed { libraryChanged() }
        for url in await syncSubscriber.withdraw(remove) { Log.info("sync", "\(device) withdrew \(url), not subscribed yet") }
        let queued = Set(await syncSubscriber.queued)
        var wanted: [String] = []
        for url in add where try await store.podcastID(feedURL: url) == nil && !queued.contains(url) { wanted.append(url) }
        if !wanted.isEmpty {
            Log.info("sync", "\(device) subscribed \(wanted.count) podcast(s); fetching them")
            await syncSubscriber.enqueue(wanted)
        }
    }

    /// A podcast a phone subscribed: fetched and stored; an old address it came from is kept as an
    /// alias, and the actions phones sent about its episodes before it was here are applied now.
    func subscribeFromPhone(_ url: String) async {
        do {
            let (podcast, _) = try await subscriptions.add(url)
            if await syncSubscriber.takeWithdrawn(url) {
                // A phone took it back while it was fetched: as if the removal had come after.
                if try await store.unsubscribe(podcastID: podcast.id) { Log.info("sync", "a phone withdrew \(url) while it was fetched") }
                libraryChanged()
                return
            }
            if podcast.feedURL != url { try await store.addPodcastAlias(url, podcastID: podcast.id) }
            for (id, action) in try await store.unmatchedEpisodeActions(podcast: url) {
                guard let episode = try await store.matchEpisode(podcast: action.podcast, episode: action.episode, guid: action.guid)
                else { continue }
                try await store.matchEpisodeAction(id, episodeID: episode.id)
                try await apply(action, to: episode.id)
            }
            libraryChanged()
        } catch let error as SubscriptionError {
            Log.warning("sync", "could not subscribe to \(url), which a phone added: \(error.message)")
        } catch {
            Log.error("sync", "could not subscribe to \(url), which a phone added: \(String(reflecting: error))")
        }
    }
}
