import EarshotCore
import Testing
import TestSupport

@Suite("Sync: what a phone's action does to an episode")
struct SyncDecisionTests {
    func play(_ position: Int, total: Int? = 3600) -> EpisodeAction {
        EpisodeAction(podcast: "p", episode: "e", kind: .play, position: position, total: total)
    }

    @Test("a newer play moves the position; at the end (less the margin) it marks played")
    func moves() {
        let local = SyncDecision.Local(position: 100, played: false, changedAt: 1000, duration: 3600)
        #expect(SyncDecision.decide(play(754), at: 2000, local: local) == .move(position: 754, played: false))
        #expect(SyncDecision.decide(play(3580), at: 2000, local: local) == .move(position: 0, played: true))
        #expect(SyncDecision.decide(play(3500), at: 2000, local: local, margin: 120) == .move(position: 0, played: true))
        #expect(SyncDecision.decide(play(3500), at: 2000, local: local, margin: 30) == .move(position: 3500, played: false))
        // No total from the phone: the feed's duration decides.
        #expect(SyncDecision.decide(play(3590, total: nil), at: 2000, local: local) == .move(position: 0, played: true))
        #expect(SyncDecision.decide(play(3590, total: nil), at: 2000, local: .init(position: 0, played: false, changedAt: nil, duration: 0))
                == .move(position: 3590, played: false), "no length known anywhere: only the position")
    }

    @Test("older or as old as Earshot's own change, playing here, download/delete, or nothing to change: kept")
    func keeps() {
        let local = SyncDecision.Local(position: 100, played: false, changedAt: 1000, duration: 3600)
        #expect(SyncDecision.decide(play(754), at: 999, local: local) == .keep(.older))
        #expect(SyncDecision.decide(play(754), at: 1000, local: local) == .keep(.older), "a tie keeps what is here")
        var playing = local
        playing.playingHere = true
        #expect(SyncDecision.decide(play(754), at: 5000, local: playing) == .keep(.playingHere))
        #expect(SyncDecision.decide(EpisodeAction(podcast: "p", episode: "e", kind: .download), at: 5000, local: local) == .keep(.notAboutListening))
        #expect(SyncDecision.decide(EpisodeAction(podcast: "p", episode: "e", kind: .delete), at: 5000, local: local) == .keep(.notAboutListening))
        #expect(SyncDecision.decide(play(100), at: 5000, local: local) == .keep(.same))
    }

    @Test("new: unplayed from the start")
    func new() {
        let played = SyncDecision.Local(position: 0, played: true, changedAt: 1000, duration: 3600)
        #expect(SyncDecision.decide(EpisodeAction(podcast: "p", episode: "e", kind: .new), at: 2000, local: played)
                == .move(position: 0, played: false))
    }

    @Test("property: the newest word wins — applying any actions in time order leaves the newest one's effect")
    func newestWins() {
        var random = SplitMix64(seed: 1616)
        for _ in 0..<2000 {
            var local = SyncDecision.Local(position: Double(random.next() % 3600), played: random.next() % 4 == 0,
                                           changedAt: Double(random.next() % 1000), duration: 3600)
            let start = local
            var actions: [(EpisodeAction, Double)] = (0..<Int(random.next() % 6)).map { _ in
                let kinds: [EpisodeAction.Kind] = [.play, .play, .new, .download]
                var action = EpisodeAction(podcast: "p", episode: "e", kind: kinds[Int(random.next() % 4)])
                if action.kind == .play { action.position = Int(random.next() % 3700); action.total = 3600 }
                return (action, Double(random.next() % 2000))
            }
            // Distinct times (a tie keeps what is there: whichever came first, tested above).
            actions.sort { $0.1 < $1.1 }
            actions = actions.enumerated().filter { $0.offset == 0 || actions[$0.offset - 1].1 != $0.element.1 }.map(\.element)
            for (action, time) in actions {
                if case .move(let position, let played) = SyncDecision.decide(action, at: time, local: local) {
                    #expect(time > (local.changedAt ?? -1), "never moves for an older action")
                    local.position = position; local.played = played; local.changedAt = time
                }
            }
            // The newest listening action newer than Earshot's own change is what the episode shows.
            if let last = actions.last(where: { $0.0.kind != .download && $0.1 > (start.changedAt ?? -1) }) {
                let expected = SyncDecision.decide(last.0, at: last.1, local: .init(position: -99, played: !local.played, changedAt: nil, duration: 3600))
                if case .move(let position, let played) = expected {
                    #expect(local.position == position && local.played == played)
                }
            } else {
                #expect(local == start, "nothing newer: nothing changed")
            }
        }
    }

    @Test("a clock ahead is capped at now, and said when it is more than drift")
    func clock() {
        #expect(SyncClock.cap(nil, now: 500) == (500, nil))
        #expect(SyncClock.cap(400, now: 500) == (400, nil))
        #expect(SyncClock.cap(530, now: 500) == (500, nil))
        #expect(SyncClock.cap(4100, now: 500) == (500, 3600))
    }
}
