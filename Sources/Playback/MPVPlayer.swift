import CMPV
import EarshotCore
import Foundation

/// The only owner of an mpv handle in Earshot. mpv's client API is thread-safe, so commands are
/// sent from any thread; one dedicated thread blocks in `mpv_wait_event`, decodes each event
/// into `MPVEvent` and yields it to `events`.
public final class MPVPlayer: @unchecked Sendable {
    // @unchecked: `handle` is only ever passed to mpv's thread-safe functions; it, `generation`
    // and `isShutDown` are read and replaced under `lock` (restart() swaps in a new mpv).
    private(set) var handle: OpaquePointer
    let lock = NSLock()
    private(set) var isShutDown = false
    /// Which mpv instance is current: an event thread whose number is stale stops yielding.
    private var generation = 0
    private var eventThreadDone = DispatchSemaphore(value: 0)
    let continuation: AsyncStream<MPVEvent>.Continuation
    let audioOutput: String?
    /// The CA bundle streams are verified against (nil: the system's).
    private let caFile: String?
    /// The last TLS failure ffmpeg logged, for the end of the file it failed (events thread only,
    /// read and cleared under `lock`).
    var tlsFailure: String?
    /// The watchdog's probe bookkeeping (MPVPlayer+Health), guarded by `lock`.
    var health = MPVHealth()
    /// Whether mpv plays into Snapcast's pipe now (MPVPlayer+Outputs), guarded by `lock`.
    var intoRooms = false
    /// Pause changes sent and not yet answered by mpv (`pauseChangeInFlight`), guarded by `lock`.
    var pauseSetsInFlight = 0
    /// Reads waiting for mpv's answer (MPVPlayer+Reads), guarded by `lock`.
    var reads = MPVReads()

    /// Every event mpv reports, in order, decoded — across restarts. Finishes after `shutdown()`.
    public let events: AsyncStream<MPVEvent>

    /// Creates and initializes mpv for audio only.
    /// - Parameters:
    ///   - audioOutput: mpv's `ao` (e.g. "null", "pulse", "alsa"); nil lets mpv choose.
    ///   - caFile: a PEM bundle HTTPS streams are verified against instead of the system's
    ///     (`--ca-file`: the system's roots with a private CA added).
    public init(audioOutput: String? = nil, caFile: String? = nil) throws {
        self.audioOutput = audioOutput
        self.caFile = caFile
        handle = try Self.makeHandle(audioOutput: audioOutput, caFile: caFile)
        (events, continuation) = AsyncStream.makeStream(of: MPVEvent.self, bufferingPolicy: .unbounded)
        startEventThread(handle: handle, generation: 0, done: eventThreadDone)
    }

    /// A new, initialized mpv with Earshot's options and observed properties.
    private static func makeHandle(audioOutput: String?, caFile: String?, extra: [(String, String)] = []) throws -> OpaquePointer {
        // libmpv is loaded the first time a player starts (CMPV's shim.h says why).
        if let failure = earshot_mpv_load() {
            throw MPVError(code: -1, message: String(cString: failure), operation: "load")
        }
        earshot_mpv_set_c_numeric()
        // mpv probes every audio output for `audio-device-list`; PipeWire's client library then prints
        // warnings about a missing client.conf on machines without one. Earshot reports audio problems
        // itself, so PipeWire's own console log is off unless the user set a level.
        setenv("PIPEWIRE_DEBUG", "0", 0)
        guard let h = earshot_mpv_create() else {
            throw MPVError(code: -1, message: "mpv_create failed (out of memory?)", operation: "create")
        }
        var options: [(String, String)] = [
            ("vid", "no"), ("video", "no"), ("audio-display", "no"),
            ("terminal", "no"), ("input-default-bindings", "no"), ("input-vo-keyboard", "no"),
            ("idle", "yes"), ("config", "no"), ("osc", "no"),
            // Feeds point at untrusted URLs: nothing may run scripts, follow playlist
            // references or call out to youtube-dl.
            ("ytdl", "no"), ("load-scripts", "no"), ("access-references", "no"),
            ("load-unsafe-playlists", "no"),
            // mpv's built-in Lua scripts (the stats overlay, the console, auto-profiles) are for a
            // window Earshot does not have: each is a Lua state and a thread (~3 MB idle).
            ("load-stats-overlay", "no"), ("load-osd-console", "no"), ("load-auto-profiles", "no"),
            // Speed keeps the pitch: scaletempo2 named in the chain rather than left to
            // audio-pitch-correction's choice, so it is the same on every mpv and can be checked.
            ("audio-pitch-correction", "yes"), ("af", AudioFilterChain().mpvValue),
            // Volumes up to 130 % (quiet recordings); the engine refuses more.
            ("volume-max", "130"),
            ("cache", "yes"), ("demuxer-max-bytes", "32MiB"), ("demuxer-readahead-secs", "20"),
            ("network-timeout", "20"),
            // The next queued episode is appended to mpv's playlist (PlaybackEngine+Preload):
            // mpv opens it while the current one ends, so the switch costs no open.
            ("prefetch-playlist", "yes"),
            ("user-agent", Earshot.userAgent),
            // HTTPS streams are verified (mpv's default is not to): against the system's roots,
            // or the bundle `--ca-file` made.
            ("tls-verify", "yes"),
        ]
        if let caFile { options.append(("tls-ca-file", caFile)) }
        if let audioOutput, !audioOutput.isEmpty { options.append(("ao", audioOutput)) }
        options += extra
        for (name, value) in options {
            let rc = earshot_mpv_set_option_string(h, name, value)
            if rc < 0 {
                earshot_mpv_terminate_destroy(h)
                throw MPVError(code: rc, message: String(cString: earshot_mpv_error_string(rc)), operation: "option \(name)=\(value)")
            }
        }
        let rc = earshot_mpv_initialize(h)
        guard rc >= 0 else {
            earshot_mpv_terminate_destroy(h)
            throw MPVError(code: rc, message: String(cString: earshot_mpv_error_string(rc)), operation: "initialize")
        }
        // ffmpeg's errors, for the one failure mpv's end-file code does not name: a certificate
        // that is not trusted (it says only "loading failed").
        earshot_mpv_request_log_messages(h, "error")
        for (index, entry) in Self.observed.enumerated() {
            earshot_mpv_observe_property(h, UInt64(index), entry.name, entry.format)
        }
        return h
    }

    private func startEventThread(handle: OpaquePointer, generation: Int, done: DispatchSemaphore) {
        let box = HandleBox(handle: handle)
        let thread = Thread { [self] in self.runEventLoop(handle: box.handle, generation: generation, done: done) }
        thread.name = "mpv-events"
        thread.start()
    }

    /// Replaces mpv with a new instance (same options, nothing loaded) after it quit or stopped
    /// answering. The old instance's thread stops yielding at once; it is destroyed on a thread of
    /// its own, since a hung mpv would block that call for good (the thread is then lost, not us).
    /// `settings` (e.g. pause, speed, volume) are options of the new instance from its start, so
    /// its first reports already agree with what the engine shows.
    public func restart(settings: [(String, String)] = []) throws {
        // Into the rooms before: the new mpv starts there too.
        let rooms = lock.withLock { intoRooms } ? Self.roomsFormat + [("ao", "sdl")] : []
        let fresh = try Self.makeHandle(audioOutput: audioOutput, caFile: caFile, extra: settings + rooms)
        lock.lock()
        guard !isShutDown else { lock.unlock(); earshot_mpv_terminate_destroy(fresh); return }
        let old = handle, oldDone = eventThreadDone
        handle = fresh
        generation += 1
        eventThreadDone = DispatchSemaphore(value: 0)
        health = MPVHealth()
        pauseSetsInFlight = 0 // the old mpv's replies stop with it
        reads.late = false
        startEventThread(handle: fresh, generation: generation, done: eventThreadDone)
        lock.unlock()
        Self.destroy(old, after: oldDone)
    }

    /// Wakes `handle`'s event thread, waits for it to stop (`eventThreadDone`), then destroys the handle,
    /// all on a thread of its own: a core held by a sound server that stopped answering stops only once
    /// the server answers, and that thread is then lost, not the caller. Signalled once destroyed.
    @discardableResult
    private static func destroy(_ handle: OpaquePointer, after eventThreadDone: DispatchSemaphore) -> DispatchSemaphore {
        let box = HandleBox(handle: handle)
        let destroyed = DispatchSemaphore(value: 0)
        let reaper = Thread {
            earshot_mpv_wakeup(box.handle)
            eventThreadDone.wait()  // the event thread looks at `isShutDown` and the generation at least every second
            earshot_mpv_terminate_destroy(box.handle)
            destroyed.signal()
        }
        reaper.name = "mpv-reaper"
        reaper.start()
        return destroyed
    }

    deinit { shutdown() }

    /// Loads a URL or file path, replacing what plays, starting at `start` seconds.
    /// Async: a dead URL is reported later as `.endFile(.error)`, never blocks the caller.
    public func load(_ url: String, start: Double, paused: Bool = false) {
        setProperty("pause", paused ? "yes" : "no")
        // `start` is the file's own option, in the same request: it was set on mpv before the
        // `loadfile`, synchronously (asynchronous requests may be carried out in any order), and
        // that waited for mpv's core — for as long as a stuck sound server held it.
        lock.lock(); defer { lock.unlock() }
        guard !isShutDown else { return }
        _ = earshot_mpv_loadfile_async(handle, Self.commandReplyID, url, "replace", String(format: "%.3f", max(0, start)))
    }

    /// Exact seek to an absolute position in seconds.
    /// mpv answers it with `.seekAnswered` (taken in, or refused) before it carries it out.
    public func seek(to seconds: Double) {
        command(["seek", String(format: "%.3f", max(0, seconds)), "absolute+exact"], replyID: Self.seekReplyID)
    }

    /// Pauses or resumes. The change is asynchronous: until mpv has carried it out (its reply),
    /// `pauseChangeInFlight` is true, and a `pause` report read meanwhile may be older than it.
    public func setPaused(_ paused: Bool) {
        // Counted before it is sent, so its reply can never come first.
        lock.withLock { pauseSetsInFlight += 1 }
        if !setProperty("pause", paused ? "yes" : "no", replyID: Self.pauseReplyID) {
            lock.withLock { pauseSetsInFlight = max(0, pauseSetsInFlight - 1) }
        }
    }

    /// Whether a pause or resume asked for has not been carried out by mpv yet. mpv's `pause` reports,
    /// and even its value read now, can still be the one before it: `mpv_get_property` reads under
    /// the core's lock without running the requests queued ahead of it (a resume's read could see
    /// the pause sent just before, and the engine took that for a pause from elsewhere: HandoffTests
    /// saw the speakers paused right after `handoff.give` once in a full run).
    public var pauseChangeInFlight: Bool { lock.withLock { pauseSetsInFlight > 0 } }
    public func setSpeed(_ rate: Double) { setProperty("speed", String(format: "%.3f", rate)) }
    public func setVolume(_ volume: Double) { setProperty("volume", String(format: "%.1f", volume)) }
    public func setMuted(_ muted: Bool) { setProperty("mute", muted ? "yes" : "no") }
    /// Replaces mpv's audio filter chain (`af`: see `AudioFilterChain`).
    public func setFilters(_ chain: String) { setProperty("af", chain) }
    /// Unloads the file; mpv stays idle.
    public func stop() { command(["stop"]) }

    /// Reads any property as mpv formats it ("2.000000", "yes", a filter list); nil when it is
    /// unavailable. For tests' checks only: it waits for mpv's core as long as the core is busy (the
    /// engine follows observed properties, and reads with a limit: `read`).
    public func property(_ name: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        guard !isShutDown, let value = earshot_mpv_get_property_string(handle, name) else { return nil }
        defer { earshot_mpv_free(value) }
        return String(cString: value)
    }

    /// How long `shutdown` waits for mpv's core to stop.
    static let shutdownWait: DispatchTimeInterval = .seconds(2)

    /// Stops the event thread and destroys the handle. Safe to call more than once. Waits at most
    /// `shutdownWait` for mpv's core to stop: Earshot, told to quit while a sound server did not
    /// answer, waited with the core for as long (the process's end takes the stuck core with it).
    public func shutdown() {
        lock.lock()
        if isShutDown { lock.unlock(); return }
        isShutDown = true
        let handle = self.handle, done = eventThreadDone
        lock.unlock()
        if Self.destroy(handle, after: done).wait(timeout: .now() + Self.shutdownWait) == .timedOut {
            Log.warning("mpv", "its core did not stop (a sound server not answering?); leaving it behind")
        }
        continuation.finish()
    }

    // MARK: - Sending

    func command(_ args: [String], replyID: UInt64 = commandReplyID) {
        lock.lock(); defer { lock.unlock() }
        guard !isShutDown else { return }
        // mpv copies the strings before mpv_command_async returns.
        var cStrings: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { argv in
                _ = earshot_mpv_command_async(handle, replyID, argv)
            }
        }
    }

    /// Sets a property asynchronously; mpv's reply carries `replyID`. False when it was not sent.
    @discardableResult
    func setProperty(_ name: String, _ value: String, replyID: UInt64 = propertyReplyID) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !isShutDown else { return false }
        var cValue: UnsafeMutablePointer<CChar>? = strdup(value)
        defer { free(cValue) }
        return earshot_mpv_set_property_async(handle, replyID, name, MPV_FORMAT_STRING, &cValue) >= 0
    }

    static let commandReplyID: UInt64 = 1
    static let propertyReplyID: UInt64 = 2
    static let pauseReplyID: UInt64 = 3
    static let seekReplyID: UInt64 = 4

    // MARK: - Receiving

    private func runEventLoop(handle: OpaquePointer, generation: Int, done: DispatchSemaphore) {
        defer { done.signal() }
        func deliver(_ decoded: MPVEvent) {
            // A restart may have happened during the wait: the old mpv's last words are dropped.
            lock.lock(); let current = generation == self.generation && !isShutDown; lock.unlock()
            if current { continuation.yield(decoded) }
        }
        // An end in error is held until ffmpeg's log line that says why (a certificate not trusted)
        // has had its chance: mpv hands out queued events and property changes before log lines,
        // so the events behind the end are held with it (in order) until that line comes, 0.1 s
        // pass without any event, or 0.5 s in all.
        var held: MPVEvent?
        var behind: [MPVEvent] = []
        var heldSince: DispatchTime = .now()
        func release(_ end: MPVEvent) {
            deliver(withTLSFailure(end))
            for event in behind { deliver(event) }
            held = nil
            behind = []
        }
        while true {
            lock.lock(); let stopping = isShutDown || generation != self.generation; lock.unlock()
            if stopping { return }
            guard let event = earshot_mpv_wait_event(handle, held == nil ? 1 : 0.1)?.pointee else { continue }
            if isProbeReply(event) || isReadReply(event) { continue }
            let decoded = decode(event)
            if let end = held {
                let late = DispatchTime.now().uptimeNanoseconds - heldSince.uptimeNanoseconds > 500_000_000
                if event.event_id == MPV_EVENT_NONE || tlsFailurePending() || late || event.event_id == MPV_EVENT_SHUTDOWN {
                    release(end)
                } else {
                    if event.event_id != MPV_EVENT_LOG_MESSAGE, let decoded { behind.append(decoded) }
                    continue
                }
            }
            if event.event_id == MPV_EVENT_NONE { continue }
            if case .endFile(.error) = decoded, !(decoded.map(Self.namesTLS) ?? false) {
                held = decoded
                heldSince = .now()
                continue
            }
            if let decoded { deliver(decoded) }
            if event.event_id == MPV_EVENT_SHUTDOWN { return }
        }
    }
}

/// An mpv handle handed to another thread: mpv's client API may be called from any thread.
private struct HandleBox: @unchecked Sendable { let handle: OpaquePointer }
