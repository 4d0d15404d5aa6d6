import EarshotCore
import Foundation

/// The paired devices' token hashes in memory, so the libwebsockets thread can recognise a cookie
/// without waiting on SQLite. The library is the record; this mirrors it (loaded at start, changed
/// with each pairing and revocation). It also collects when each device was last seen, written to
/// the library at most once a minute per device.
final class DeviceRegistry: @unchecked Sendable {
    // @unchecked: every stored property is touched only under `lock`.
    private let lock = NSLock()
    private var deviceByHash: [String: Int64] = [:]
    private var lastSeen: [Int64: Date] = [:]
    private var lastStored: [Int64: Date] = [:]
    /// How stale a stored last-seen may get.
    static let storeEvery: TimeInterval = 60

    func load(_ rows: [(id: Int64, hash: String)]) {
        lock.lock(); defer { lock.unlock() }
        deviceByHash = Dictionary(rows.map { ($0.hash, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    func add(id: Int64, hash: String) {
        lock.lock(); defer { lock.unlock() }
        deviceByHash[hash] = id
        lastStored[id] = Date()
    }

    func remove(id: Int64) {
        lock.lock(); defer { lock.unlock() }
        deviceByHash = deviceByHash.filter { $0.value != id }
        lastSeen[id] = nil
        lastStored[id] = nil
    }

    /// The device a token belongs to, or nil (unknown or revoked).
    func device(for token: DeviceToken) -> Int64? {
        let hash = token.hash // outside the lock: the digest is the slow part
        lock.lock(); defer { lock.unlock() }
        return deviceByHash[hash]
    }

    /// Whether `id` is still paired (a revoked device's late frames are dropped).
    func isPaired(_ id: Int64) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return deviceByHash.values.contains(id)
    }

    /// Notes `id` seen at `now`; true when the library's copy is due for an update.
    func seen(_ id: Int64, at now: Date = Date()) -> Bool {
        lock.lock(); defer { lock.unlock() }
        lastSeen[id] = now
        guard now.timeIntervalSince(lastStored[id] ?? .distantPast) >= Self.storeEvery else { return false }
        lastStored[id] = now
        return true
    }

    /// The newest sighting in memory (the library's may be up to a minute older).
    func lastSeen(_ id: Int64) -> Date? {
        lock.lock(); defer { lock.unlock() }
        return lastSeen[id]
    }
}
