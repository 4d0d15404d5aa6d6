import EarshotCore
import Foundation

/// Writes the engine must not lose quietly: positions, played marks, Up Next and the marks of
/// episodes that failed. A failed write is logged with its detail and shown to every client as
/// `state.notice` (the listener would otherwise find their place lost tomorrow).
extension PlaybackEngine {
    /// Runs one library write; a failure becomes a log line and a notice on every client.
    /// Returns whether it was stored.
    @discardableResult
    func persist(_ what: String, _ write: () async throws -> Void) async -> Bool {
        do {
            try await write()
            return true
        } catch {
            Log.error("library", "could not save \(what): \(String(reflecting: error))")
            let notice = plainReason(of: error).map { "Could not save \(what): \($0)." }
                ?? "Could not save \(what): the library cannot be written (the server's log says why)."
            if state.notice != notice {
                state.notice = notice
                publishState()
            }
            return false
        }
    }

    /// Marks an episode played (or not) in the library, as `persist` does any write.
    func storePlayed(_ episode: Int64, _ played: Bool) async {
        await persist(played ? "that the episode was played" : "that the episode is not played yet") {
            try await store.setPlayed(episodeID: episode, played: played)
        }
    }

    /// Queued or played: the episode has been dealt with, and leaves the Inbox (any position
    /// saved later would take it out too; this is at once, for the lists).
    func leaveInbox(_ episode: Int64) async {
        await persist("that the episode left the Inbox") { _ = try await store.leaveInbox(episodeID: episode) }
    }

    /// A settings row holding `value` as JSON.
    func storeSetting<T: Encodable>(_ key: String, _ value: T, as what: String) async {
        await persist(what) {
            let data = try JSONEncoder().encode(value)
            try await store.setSetting(key, String(decoding: data, as: UTF8.self))
        }
    }
}
