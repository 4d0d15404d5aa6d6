import EarshotCore
import Foundation

extension LibraryStore {
    /// Remembers where the listener is in an episode, in seconds (negative or non-finite values store 0).
    public func savePosition(episodeID: Int64, position: Double) throws {
        let seconds = position.isFinite ? max(0, position) : 0
        try database.run(LibrarySQL.savePosition, [seconds, Date(), episodeID])
        if database.changes == 0 { throw LibraryError.episodeNotFound(episodeID) }
    }

    /// Marks an episode played (which also rewinds it to the start) or unplayed (keeping its position).
    public func setPlayed(episodeID: Int64, played: Bool) throws {
        try database.run(LibrarySQL.setPlayed, [played, Date(), episodeID])
        if database.changes == 0 { throw LibraryError.episodeNotFound(episodeID) }
    }
}
