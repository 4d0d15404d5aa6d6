import EarshotCore
import TestSupport
import Testing

/// The engine's loading state as one value, against the four flags it replaced.
@Suite("Load phase")
struct LoadPhaseTests {
    @Test("a seek before the file opens waits, is sent when it opens, and positions are stale until playback restarts")
    func deferredSeek() {
        var phase = LoadPhase.opening(pendingSeek: nil)
        #expect(phase.isLoaded && !phase.isOpen && !phase.positionsAreCurrent, "a position reported while opening is the previous file's")
        let (waiting, sendNow) = phase.seekRequested(42)
        #expect(!sendNow && waiting == .opening(pendingSeek: 42) && !waiting.positionsAreCurrent)
        phase = waiting
        let (opened, seek) = phase.fileOpened()
        #expect(seek == 42 && opened == .open(awaitingRestart: true) && !opened.positionsAreCurrent && opened.isOpen)
        phase = opened.playbackRestarted()
        #expect(phase == .open(awaitingRestart: false) && phase.positionsAreCurrent)
        #expect(phase.seekRequested(10) == (.open(awaitingRestart: true), true), "an open file seeks at once; positions wait for the restart")
        #expect(phase.seekRequested(10).phase.playbackRestarted().positionsAreCurrent)
        #expect(phase.seekRequested(10).phase.commandRefused().positionsAreCurrent, "a refused seek brings no restart")
        #expect(LoadPhase.idle.seekRequested(10) == (.idle, false) && !LoadPhase.idle.isLoaded)
        #expect(LoadPhase.idle.fileOpened() == (.idle, nil), "a file opening after a stop does not load anything")
    }

    /// The flags as the engine kept them before (loaded, fileReady, pendingSeek, awaitingRestart).
    struct Flags: Equatable {
        var loaded = false, fileReady = false, pendingSeek: Double? = nil, awaitingRestart = false
        // Two changes from the old flags: positions are trusted only once the file is open (while it
        // opens, a reported position is the previous file's), and not between a seek and its restart.
        var positionsAreCurrent: Bool { loaded && fileReady && pendingSeek == nil && !awaitingRestart }
    }

    @Test("over random event sequences the phase sends the same seeks and trusts the same positions as the old flags")
    func matchesTheOldFlags() {
        var random = SplitMix64(seed: 12)
        for _ in 0..<2_000 {
            var phase = LoadPhase.idle
            var flags = Flags()
            for _ in 0..<20 {
                var sentByPhase: Double?, sentByFlags: Double?
                switch random.next() % 5 {
                case 0: // load
                    phase = .opening(pendingSeek: nil)
                    flags = Flags(loaded: true)
                case 1: // mpv opened the file
                    let (next, seek) = phase.fileOpened()
                    phase = next; sentByPhase = seek
                    if flags.loaded {
                        flags.fileReady = true
                        if let target = flags.pendingSeek { flags.pendingSeek = nil; flags.awaitingRestart = true; sentByFlags = target }
                    }
                case 2: // playback restarted
                    phase = phase.playbackRestarted()
                    if flags.awaitingRestart, flags.pendingSeek == nil { flags.awaitingRestart = false }
                case 3: // the listener seeks
                    let target = Double(random.next() % 100)
                    let (next, now) = phase.seekRequested(target)
                    phase = next; if now { sentByPhase = target }
                    if flags.loaded && flags.fileReady { sentByFlags = target; flags.awaitingRestart = true } else if flags.loaded { flags.pendingSeek = target }
                default: // end, failure or stop
                    phase = .idle
                    flags = Flags()
                }
                #expect(sentByPhase == sentByFlags)
                #expect(phase.isLoaded == flags.loaded && phase.isOpen == (flags.loaded && flags.fileReady))
                #expect(phase.positionsAreCurrent == flags.positionsAreCurrent)
            }
        }
    }
}
