import EarshotCore
import Foundation

extension LibraryStore {
    /// Keeps a newly paired device: its name and its token's hash (never the token).
    public func addDevice(name: String, tokenHash: String, at date: Date = Date()) throws -> PairedDevice {
        try database.run("INSERT INTO devices(name, token_hash, created_at, last_seen_at) VALUES(?, ?, ?, ?)",
                         [name, tokenHash, date, date])
        let seconds = date.timeIntervalSince1970
        return PairedDevice(id: database.lastInsertedRowID, name: name, created: seconds, lastSeen: seconds)
    }

    /// Every paired device, most recently seen first.
    public func devices() throws -> [PairedDevice] {
        try database.fetchAll("SELECT id, name, created_at, last_seen_at FROM devices ORDER BY last_seen_at DESC, id DESC") {
            PairedDevice(id: $0.int64(at: 0), name: $0.string(at: 1), created: $0.double(at: 2), lastSeen: $0.double(at: 3))
        }
    }

    /// Each device's id with its token hash: what the server loads to recognise cookies.
    public func deviceTokenHashes() throws -> [(id: Int64, hash: String)] {
        try database.fetchAll("SELECT id, token_hash FROM devices") { (id: $0.int64(at: 0), hash: $0.string(at: 1)) }
    }

    /// Forgets a device; false when there was none with that id.
    public func removeDevice(id: Int64) throws -> Bool {
        try database.run("DELETE FROM devices WHERE id = ?", [id])
        return database.changes > 0
    }

    /// Notes that a device was seen (never moves the time back).
    public func touchDevice(id: Int64, at date: Date) throws {
        try database.run("UPDATE devices SET last_seen_at = max(last_seen_at, ?) WHERE id = ?", [date, id])
    }
}
