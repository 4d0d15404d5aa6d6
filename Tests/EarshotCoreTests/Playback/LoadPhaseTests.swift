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
        #expect(seek == 42 && opened == .open(awaitingRestart: false, unanswered: 1) && !opened.positionsAreCurrent && opened.isOpen)
        phase = opened.seekAnswered(accepted: true)
        #expect(!phase.positionsAreCurrent, "taken in, not yet carried out")
        phase = phase.playbackRestarted()
        #expect(phase == .open(awaitingRestart: false) && phase.positionsAreCurrent)
        #expect(phase.seekRequested(10) == (.open(awaitingRestart: false, unanswered: 1), true),
                "an open file seeks at once; positions wait for the answer and the restart")
        #expect(phase.seekRequested(10).phase.seekAnswered(accepted: true).playbackRestarted().positionsAreCurrent)
        #expect(phase.seekRequested(10).phase.seekAnswered(accepted: false).positionsAreCurrent, "a refused seek brings no restart")
        #expect(LoadPhase.idle.seekRequested(10) == (.idle, false) && !LoadPhase.idle.isLoaded)
        #expect(LoadPhase.idle.fileOpened() == (.idle, nil), "a file opening after a stop does not load anything")
    }

    @Test("a restart that comes while a later seek is unanswered is the earlier seek's: positions stay stale")
    func quickSeeks() {
        // Two "previous" presses: 31 s → 25 s (taken in, carried out), then 0 s sent before 25 s restarted.
        var phase = LoadPhase.open(awaitingRestart: false)
        phase = phase.seekRequested(25).phase.seekAnswered(accepted: true)
        phase = phase.seekRequested(0).phase
        phase = phase.playbackRestarted()
        #expect(!phase.positionsAreCurrent, "25 s restarted, 0 s not yet taken in: reports of 25.1 s are stale")
        phase = phase.seekAnswered(accepted: true)
        #expect(!phase.positionsAreCurrent, "0 s taken in, not carried out")
        phase = phase.playbackRestarted()
        #expect(phase.positionsAreCurrent)
        // mpv may fold two queued seeks into one: both answered, one restart.
        phase = phase.seekRequested(5).phase.seekRequested(6).phase.seekAnswered(accepted: true).seekAnswered(accepted: true)
        #expect(!phase.positionsAreCurrent)
        #expect(phase.playbackRestarted().positionsAreCurrent)
        // A refusal while another seek is on its way leaves positions stale until that one restarts.
        phase = LoadPhase.open(awaitingRestart: false).seekRequested(5).phase.seekRequested(9_999).phase
        phase = phase.seekAnswered(accepted: true).seekAnswered(accepted: false)
        #expect(!phase.positionsAreCurrent && phase.playbackRestarted().positionsAreCurrent)
    }

    @Test("over random orders of mpv's answers and restarts, positions count again exactly when every seek is answered and restarted after")
    func answersAndRestarts() {
        var random = SplitMix64(seed: 31)
        for _ in 0..<2_000 {
            var phase = LoadPhase.open(awaitingRestart: false)
            // A model of mpv: seeks it has not answered, and whether one answered is not carried out yet.
            var unanswered = 0, notCarriedOut = false
            for _ in 0..<30 {
                switch random.next() % 4 {
                case 0: // the listener seeks
                    phase = phase.seekRequested(Double(random.next() % 100)).phase
                    unanswered += 1
                case 1: // mpv answers the oldest unanswered seek, taking it in (or, now and then, refusing it)
                    guard unanswered > 0 else { continue }
                    let accepted = random.next() % 8 != 0
                    phase = phase.seekAnswered(accepted: accepted)
                    unanswered -= 1
                    if accepted { notCarriedOut = true }
                case 2: // mpv carries out what it took in and restarts
                    guard notCarriedOut else { continue }
                    phase = phase.playbackRestarted()
                    notCarriedOut = false
                default: // a restart with nothing of ours on its way (a reconnect, a track change)
                    guard unanswered == 0, !notCarriedOut else { continue }
                    phase = phase.playbackRestarted()
                }
                // Never current while mpv may still report from before a seek; current once all is done
                // (a refusal of the last one included).
                if unanswered > 0 || notCarriedOut { #expect(!phase.positionsAreCurrent) }
                if unanswered == 0, !notCarriedOut { #expect(phase.positionsAreCurrent, "nothing on its way: \(phase)") }
                #expect(phase.isOpen)
            }
        }
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
                case 2: // mpv answered every seek sent (taken in) and playback restarted
                    while case .open(_, let unanswered) = phase, unanswered > 0 { phase = phase.seekAnswered(accepted: true) }
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
