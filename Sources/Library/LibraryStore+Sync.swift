import EarshotCore
import Foundation

/// An episode of the library as sync sees it: what an action is compared with.
public struct SyncedEpisode: Sendable, Equatable {
    public var id: Int64
    public var podcastID: Int64
    public var position: Double
    public var played: Bool
    /// When its position or played mark last changed (nil: never).
    public var changedAt: Double?
    public var duration: Double
}

/// A device a sync client registered.
public struct SyncDeviceRecord: Sendable, Equatable {
    public var id: String
    public var caption: String
    public var type: String
    public var created: Double
    public var seen: Double
}

/// The sync side of the library (issue 16): devices, the subscription log, phones' episode
/// actions and Earshot's own listening as actions. Tables in `LibrarySchema+Sync.swift`.
extension LibraryStore {
    /// The device id Earshot's own listening is published under.
    public static let syncDeviceID = "earshot"

    // MARK: Devices

    /// Registers a device or updates it (a nil caption or type leaves what was there); notes it was seen.
    public func registerSyncDevice(id: String, caption: String?, type: String?, at time: Double) throws {
        try database.run("""
            INSERT INTO sync_devices(id, caption, type, created_at, seen_at) VALUES(?1, coalesce(?2, ''), coalesce(?3, 'other'), ?4, ?4)
            ON CONFLICT(id) DO UPDATE SET caption = coalesce(?2, caption), type = coalesce(?3, type), seen_at = max(seen_at, ?4)
            """, [id, caption, type, time])
    }

    /// Notes that a device synced (registering it, as gpodder.net does, when it never said who it is).
    public func touchSyncDevice(id: String, at time: Double) throws {
        try registerSyncDevice(id: id, caption: nil, type: nil, at: time)
    }

    /// Every registered device, most recently seen first.
    public func syncDevices() throws -> [SyncDeviceRecord] {
        try database.fetchAll("SELECT id, caption, type, created_at, seen_at FROM sync_devices ORDER BY seen_at DESC, id") {
            SyncDeviceRecord(id: $0.string(at: 0), caption: $0.string(at: 1), type: $0.string(at: 2),
                             created: $0.double(at: 3), seen: $0.double(at: 4))
        }
    }

    /// Forgets the devices and every action phones uploaded (the account was turned off).
    public func forgetSyncData() throws {
        try database.transaction {
            try database.run("DELETE FROM sync_devices")
            try database.run("DELETE FROM sync_episode_actions")
        }
    }

    // MARK: Subscriptions

    /// The web (http, https) feed addresses the library is subscribed to, oldest subscription first:
    /// what phones can subscribe to as well. The bundled demo (a path of this server) is not among them,
    /// and no phone's list can unsubscribe it.
    public func subscribedFeedURLs() throws -> [String] {
        try database.fetchAll("""
            SELECT feed_url FROM podcasts WHERE subscribed AND (feed_url LIKE 'http://%' OR feed_url LIKE 'https://%')
            ORDER BY added_at, id
            """) { $0.string(at: 0) }
    }

    /// What changed at or after `since` (Unix seconds): each address's last change decides whether
    /// it is added or removed. Addresses in the order of their last change.
    public func subscriptionChanges(since: Double) throws -> (add: [String], remove: [String]) {
        let rows = try database.fetchAll("""
            SELECT url, added FROM sync_subscription_log l
            WHERE at >= ?1 AND id = (SELECT max(id) FROM sync_subscription_log m WHERE m.url = l.url AND m.at >= ?1)
              AND (url LIKE 'http://%' OR url LIKE 'https://%')
            ORDER BY id
            """, [since]) { (url: $0.string(at: 0), added: $0.bool(at: 1)) }
        return (rows.filter(\.added).map(\.url), rows.filter { !$0.added }.map(\.url))
    }

    /// The subscribed podcast with this feed address, or one it had before (nil when none).
    public func podcastID(feedURL: String) throws -> Int64? {
        if let id = try database.fetchOne("SELECT id FROM podcasts WHERE feed_url = ? AND subscribed", [feedURL], row: { $0.int64(at: 0) }) {
            return id
        }
        return try database.fetchOne("""
            SELECT p.id FROM podcast_url_aliases a JOIN podcasts p ON p.id = a.podcast_id WHERE a.url = ? AND p.subscribed
            """, [feedURL]) { $0.int64(at: 0) }
    }

    // MARK: Episode actions

    /// The episode an action names: by its media address, then its guid, then a media address the
    /// episode had before — within the podcast the action names (by its feed address or an old
    /// one), or, when that podcast is unknown, by media address anywhere in the library.
    private static let syncedFields = "e.id, e.podcast_id, e.position, e.played, e.position_updated_at, e.duration"
    private static func synced(_ row: Statement) -> SyncedEpisode {
        SyncedEpisode(id: row.int64(at: 0), podcastID: row.int64(at: 1), position: row.double(at: 2), played: row.bool(at: 3),
                      changedAt: row.optionalDouble(at: 4), duration: row.double(at: 5))
    }

    /// An episode already matched, as it stands now (an earlier action of the same upload may have moved it).
    public func syncedEpisode(id: Int64) throws -> SyncedEpisode? {
        try database.fetchOne("SELECT \(Self.syncedFields) FROM episodes e WHERE e.id = ?", [id], row: Self.synced)
    }

    public func matchEpisode(podcast: String, episode: String, guid: String?) throws -> SyncedEpisode? {
        let fields = Self.syncedFields
        let read = Self.synced
        if let podcastID = try podcastID(feedURL: podcast) {
            if let found = try database.fetchOne("SELECT \(fields) FROM episodes e WHERE e.podcast_id = ? AND e.media_url = ? LIMIT 1",
                                                 [podcastID, episode], row: read) { return found }
            if let guid, let found = try database.fetchOne("SELECT \(fields) FROM episodes e WHERE e.podcast_id = ? AND e.guid = ?",
                                                           [podcastID, guid], row: read) { return found }
            return try database.fetchOne("""
                SELECT \(fields) FROM media_url_aliases a JOIN episodes e ON e.id = a.episode_id WHERE a.url = ? AND e.podcast_id = ?
                """, [episode, podcastID], row: read)
        }
        if let found = try database.fetchOne("""
            SELECT \(fields) FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE e.media_url = ? AND p.subscribed LIMIT 1
            """, [episode], row: read) { return found }
        return try database.fetchOne("""
            SELECT \(fields) FROM media_url_aliases a JOIN episodes e ON e.id = a.episode_id
            JOIN podcasts p ON p.id = e.podcast_id WHERE a.url = ? AND p.subscribed
            """, [episode], row: read)
    }

    /// Keeps uploaded actions as they came (times already capped), with the episode each was
    /// matched to (nil: not in the library yet). Returns their row ids, in order.
    public func storeEpisodeActions(_ actions: [(action: EpisodeAction, episodeID: Int64?)], device: String,
                                    receivedAt: Double) throws -> [Int64] {
        try database.transaction {
            var ids: [Int64] = []
            for (action, episodeID) in actions {
                try database.run("""
                    INSERT INTO sync_episode_actions(received_at, device, podcast, episode, guid, action, at, started, position, total, episode_id)
                    VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [receivedAt, action.device ?? device, action.podcast, action.episode, action.guid, action.kind.rawValue,
                          action.timestamp ?? receivedAt, action.started, action.position, action.total, episodeID])
                ids.append(database.lastInsertedRowID)
            }
            return ids
        }
    }

    /// Actions kept for an episode that was not in the library then, for podcasts now subscribed
    /// under that feed address: oldest first, with their row ids.
    public func unmatchedEpisodeActions(podcast: String) throws -> [(id: Int64, action: EpisodeAction)] {
        try database.fetchAll("""
            SELECT id, podcast, episode, guid, device, action, at, started, position, total FROM sync_episode_actions
            WHERE episode_id IS NULL AND podcast = ? ORDER BY at, id
            """, [podcast]) { (id: $0.int64(at: 0), action: Self.action($0, from: 1)) }
    }

    /// Notes the episode an earlier action turned out to be about.
    public func matchEpisodeAction(_ id: Int64, episodeID: Int64) throws {
        try database.run("UPDATE sync_episode_actions SET episode_id = ? WHERE id = ?", [episodeID, id])
    }

    /// Moves an episode where a phone's action says (its time is when that happened, `device` who did it).
    public func applySyncedProgress(episodeID: Int64, position: Double, played: Bool, at time: Double, device: String) throws {
        try database.run("""
            UPDATE episodes SET position = ?1, played = ?2, position_updated_at = ?3, position_by = ?4,
                inbox_at = CASE WHEN ?1 > 0 OR ?2 THEN NULL ELSE inbox_at END
            WHERE id = ?5
            """, [position, played, time, device, episodeID])
        if database.changes == 0 { throw LibraryError.episodeNotFound(episodeID) }
    }

    /// Episode actions at or after `since` (Unix seconds): what phones uploaded (received then),
    /// and Earshot's own listening (device `earshot`) as one action per episode whose position or
    /// played mark it changed then — `play` at the position (at the end for a played episode), or
    /// `new` for an episode put back to unplayed at the start. `podcast` and `device` filter;
    /// `aggregated` keeps only each episode's newest action. Oldest first.
    public func episodeActions(since: Double, podcast: String? = nil, device: String? = nil,
                               aggregated: Bool = false) throws -> [EpisodeAction] {
        var actions: [EpisodeAction] = []
        if device == nil || device != Self.syncDeviceID {
            actions = try database.fetchAll("""
                SELECT id, podcast, episode, guid, device, action, at, started, position, total FROM sync_episode_actions
                WHERE received_at >= ?1 AND (?2 IS NULL OR podcast = ?2) AND (?3 IS NULL OR device = ?3) ORDER BY at, id
                """, [since, podcast, device]) { Self.action($0, from: 1) }
        }
        if device == nil || device == Self.syncDeviceID {
            let own = try database.fetchAll("""
                SELECT p.feed_url, e.media_url, e.guid, e.position, e.played, e.duration, e.position_updated_at
                FROM episodes e JOIN podcasts p ON p.id = e.podcast_id
                WHERE e.position_updated_at >= ?1 AND e.position_by IS NULL AND e.media_url != '' AND (?2 IS NULL OR p.feed_url = ?2)
                """, [since, podcast]) { row -> EpisodeAction in
                let duration = Int(row.double(at: 5).rounded())
                let played = row.bool(at: 4)
                let position = Int(row.double(at: 3).rounded(.down))
                var action = EpisodeAction(podcast: row.string(at: 0), episode: row.string(at: 1), guid: row.string(at: 2),
                                           device: Self.syncDeviceID, kind: .play, timestamp: row.double(at: 6))
                if played {
                    // Played here: at the end, so the phone counts it as heard.
                    action.position = max(duration, 1)
                    action.total = max(duration, 1)
                    action.started = 0
                } else if position > 0 {
                    action.position = position
                    action.total = duration > 0 ? duration : nil
                } else {
                    action.kind = .new
                }
                return action
            }
            actions.append(contentsOf: own)
            actions.sort { ($0.timestamp ?? 0) < ($1.timestamp ?? 0) }
        }
        guard aggregated else { return actions }
        var newest: [String: Int] = [:]
        for (index, action) in actions.enumerated() { newest["\(action.podcast)\n\(action.episode)"] = index }
        return actions.indices.filter { newest["\(actions[$0].podcast)\n\(actions[$0].episode)"] == $0 }.map { actions[$0] }
    }

    private static func action(_ row: Statement, from first: Int32) -> EpisodeAction {
        func int(_ column: Int32) -> Int? { row.optionalInt64(at: column).map { Int($0) } }
        return EpisodeAction(podcast: row.string(at: first), episode: row.string(at: first + 1), guid: row.optionalString(at: first + 2),
                             device: row.string(at: first + 3), kind: EpisodeAction.Kind(rawValue: row.string(at: first + 4)) ?? .play,
                             timestamp: row.double(at: first + 5), started: int(first + 6), position: int(first + 7), total: int(first + 8))
    }
}

extension LibraryStore {
    /// Remembers that `url` leads to a podcast stored under another address (a phone's address
    /// that redirected), unless it is that podcast's own.
    public func addPodcastAlias(_ url: String, podcastID: Int64) throws {
        try database.run("""
            INSERT OR REPLACE INTO podcast_url_aliases(url, podcast_id)
            SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM podcasts WHERE feed_url = ?1)
            """, [url, podcastID])
    }
}
