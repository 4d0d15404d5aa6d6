import CMPV
import Foundation

/// A value read from mpv (`MPVPlayer.read`), in the format it was asked for.
enum MPVReadValue: Sendable {
    case double(Double)
    case flag(Bool)
    case int(Int64)
}

/// One read waiting for mpv's answer: the event thread sets `value` (under the player's lock) and
/// signals `answered`.
final class MPVPendingRead: @unchecked Sendable {
    let answered = DispatchSemaphore(value: 0)
    var value: MPVReadValue?
}

/// The reads under way (`MPVPlayer.read`), guarded by the player's lock.
struct MPVReads {
    /// Reply ids from here up are reads' (below are the fixed ids of commands, sets and the probe).
    static let firstID: UInt64 = 1 << 32
    var nextID = firstID
    var waiting: [UInt64: MPVPendingRead] = [:]
    /// A read went unanswered: mpv's core is busy or stuck (a sound server that stopped answering
    /// holds it). Later reads give up at once, until mpv answers anything (a read or the probe).
    var late = false
}

extension MPVPlayer {
    /// How long a read waits for mpv's answer. An answer takes well under a millisecond while the
    /// core runs; a core held by a stuck sound server answers only once the server does (seen: 30 s).
    static let readTimeout: DispatchTimeInterval = .milliseconds(250)

    /// Reads a property as mpv has it now, waiting at most `readTimeout`; nil when it is unavailable,
    /// or mpv did not answer in time. The request is queued (`mpv_get_property_async`) and answered
    /// on the event thread: a synchronous `mpv_get_property` waits for the core's lock for as long
    /// as the core holds it, and the engine's actor, and every command behind it, waited with it.
    func read(_ name: String, _ format: mpv_format) -> MPVReadValue? {
        let pending = MPVPendingRead()
        lock.lock()
        guard !isShutDown, !reads.late else { lock.unlock(); return nil }
        let id = reads.nextID
        reads.nextID += 1
        let sent = earshot_mpv_get_property_async(handle, id, name, format) >= 0
        if sent { reads.waiting[id] = pending }
        lock.unlock()
        guard sent else { return nil }
        let inTime = pending.answered.wait(timeout: .now() + Self.readTimeout) == .success
        lock.lock(); defer { lock.unlock() }
        reads.waiting[id] = nil
        if !inTime { reads.late = true }
        return pending.value
    }

    /// Called on the event thread for every event: takes a read's answer to its reader.
    func isReadReply(_ event: mpv_event) -> Bool {
        guard event.event_id == MPV_EVENT_GET_PROPERTY_REPLY, event.reply_userdata >= MPVReads.firstID else { return false }
        let value = event.error >= 0 ? Self.readValue(event.data) : nil
        lock.lock()
        reads.late = false
        let pending = reads.waiting.removeValue(forKey: event.reply_userdata)
        pending?.value = value
        lock.unlock()
        pending?.answered.signal()
        return true
    }

    private static func readValue(_ data: UnsafeMutableRawPointer?) -> MPVReadValue? {
        guard let property = data?.load(as: mpv_event_property.self), let value = property.data else { return nil }
        switch property.format {
        case MPV_FORMAT_DOUBLE: return .double(value.load(as: Double.self))
        case MPV_FORMAT_FLAG: return .flag(value.load(as: Int32.self) != 0)
        case MPV_FORMAT_INT64: return .int(value.load(as: Int64.self))
        default: return nil
        }
    }

    /// mpv's playback position now (nil when nothing is loaded, or mpv did not answer in time): the
    /// ticker reads it so `time` messages are exact, not the last event's value.
    public func timePosition() -> Double? {
        if case .double(let seconds) = read("time-pos", MPV_FORMAT_DOUBLE) { return seconds }
        return nil
    }

    /// Whether mpv is paused now (nil: no answer in time).
    public func pausedNow() -> Bool? {
        if case .flag(let paused) = read("pause", MPV_FORMAT_FLAG) { return paused }
        return nil
    }

    /// mpv's playlist position now (-1: none; nil: no answer in time).
    public func playlistPosition() -> Int? {
        if case .int(let position) = read("playlist-pos", MPV_FORMAT_INT64) { return Int(position) }
        return nil
    }
}
