import CMPV
import Foundation

/// The watchdog's view of one mpv instance: when the probe still waiting for an answer was sent.
struct MPVHealth: Sendable {
    /// Set when a probe goes out, cleared by its answer; a probe left unanswered too long means
    /// mpv's core has stopped (a property request is answered by the core thread).
    var probeSentAt: Date?
    /// A test's stand-in for a hung core: probe answers are dropped as if they never came.
    var ignoringProbes = false
    /// This mpv answered a probe at least once.
    var answered = false
}

extension MPVPlayer {
    static let probeReplyID: UInt64 = 3

    /// Asks mpv's core for a cheap property without waiting (`mpv_get_property_async`); the
    /// answer arrives on the event thread. A probe already waiting is not repeated, so its age
    /// keeps growing while mpv is silent.
    public func probe() {
        lock.lock(); defer { lock.unlock() }
        guard !isShutDown, health.probeSentAt == nil else { return }
        health.probeSentAt = Date()
        _ = earshot_mpv_get_property_async(handle, Self.probeReplyID, "idle-active", MPV_FORMAT_FLAG)
    }

    /// Seconds the oldest unanswered probe has waited (0 when none waits).
    public var unansweredProbeAge: TimeInterval {
        lock.lock(); defer { lock.unlock() }
        return health.probeSentAt.map { Date().timeIntervalSince($0) } ?? 0
    }

    /// Whether this mpv (the current instance: a restart starts over) ever answered a probe.
    public var hasAnswered: Bool { lock.withLock { health.answered } }

    /// Called on the event thread for every event: swallows the probe's answer.
    func isProbeReply(_ event: mpv_event) -> Bool {
        guard event.event_id == MPV_EVENT_GET_PROPERTY_REPLY, event.reply_userdata == Self.probeReplyID else { return false }
        lock.lock(); defer { lock.unlock() }
        if !health.ignoringProbes {
            health.probeSentAt = nil
            health.answered = true
            reads.late = false  // the core answers again: reads wait for it again
        }
        return true
    }

    // MARK: - Test hooks: honest stand-ins for failures that cannot be caused on demand

    /// Tells mpv to quit (its `quit` command): the core shuts down and the handle is useless, as
    /// when mpv dies; Earshot's process lives on. The engine must notice and restart it.
    public func quitForTesting() { command(["quit"]) }

    /// From now on the probe's answers are dropped, as if mpv's core had stopped answering (a real
    /// hang cannot be caused from outside). Ends with `restart()`.
    public func stopAnsweringProbesForTesting() {
        lock.lock(); health.ignoringProbes = true; lock.unlock()
    }

    /// Puts an event into the stream the engine reads, exactly where mpv's decoded events go
    /// (e.g. a device list without the device in use: a machine's headphones cannot be pulled by a test).
    public func deliverForTesting(_ event: MPVEvent) { continuation.yield(event) }
}
