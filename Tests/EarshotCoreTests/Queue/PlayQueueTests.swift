import EarshotCore
import Foundation
import TestSupport
import Testing


@Suite("PlayQueue: Up Next, shuffle, repeat")
struct PlayQueueTests {
    // MARK: - Editing

    @Test("an empty queue does nothing and says so")
    func empty() {
        var q = PlayQueue()
        #expect(q.isEmpty && q.current == nil && q.visibleOrder.isEmpty)
        let r1 = q.next()
        #expect(r1 == nil)
        let r2 = q.episodeEnded()
        #expect(r2 == nil)
        let r3 = q.previous(position: 0)
        #expect(r3 == .nothing)
        let r4 = q.previous(position: 10)
        #expect(r4 == .nothing)
        let r5 = q.remove(1)
        #expect(r5 == false)
        let r6 = q.move(from: 0, to: 0)
        #expect(r6 == false)
        q.clear()
        var rng = SplitMix64(seed: 1)
        q.setShuffle(true, using: &rng)
        #expect(q.visibleOrder.isEmpty && q.isShuffled)
        q.setRepeat(.all)
        let r7 = q.episodeEnded()
        #expect(r7 == nil, "repeat-all has nothing to repeat in an empty queue")
    }

    @Test("add to the end and play next; adding a queued id moves it")
    func add() {
        var q = PlayQueue()
        q.add(1); q.add(2); q.add(3)
        #expect(q.visibleOrder == [1, 2, 3])
        q.add(4, at: .next)
        #expect(q.visibleOrder == [4, 1, 2, 3], "nothing current: play next goes to the head")
        q.play(1)
        q.add(3, at: .next)
        #expect(q.visibleOrder == [4, 1, 3, 2], "moved, not duplicated")
        q.add(4)
        #expect(q.visibleOrder == [1, 3, 2, 4])
        q.add(1, at: .end)
        #expect(q.visibleOrder == [1, 3, 2, 4], "the current episode stays where it is")
        #expect(q.current == 1)
    }

    @Test("remove: the current episode hands over to the one after it")
    func remove() {
        var q = PlayQueue([1, 2, 3], current: 2)
        let r8 = q.remove(9)
        #expect(r8 == false)
        let r9 = q.remove(2)
        #expect(r9)
        #expect(q.visibleOrder == [1, 3] && q.current == 3)
        let r10 = q.remove(3)
        #expect(r10)
        #expect(q.visibleOrder == [1] && q.current == nil, "the last one removed: nothing current")
        let r11 = q.remove(1)
        #expect(r11)
        #expect(q.isEmpty)
    }

    @Test("move reorders what the listener sees; the current episode keeps playing")
    func move() {
        var q = PlayQueue([1, 2, 3, 4], current: 2)
        let r12 = q.move(from: 1, to: 3)
        #expect(r12)
        #expect(q.visibleOrder == [1, 3, 4, 2] && q.current == 2)
        let r13 = q.next()
        #expect(r13 == nil, "the current episode is now last")
        let r14 = q.move(from: 3, to: 0)
        #expect(r14)
        #expect(q.visibleOrder == [2, 1, 3, 4])
        let r15 = q.next()
        #expect(r15 == 1)
        let r16 = q.move(from: 0, to: 4)
        #expect(r16 == false)
        let r17 = q.move(from: -1, to: 0)
        #expect(r17 == false)
    }

    @Test("clear keeps only the episode playing, like Pocket Casts")
    func clear() {
        var q = PlayQueue([1, 2, 3], current: 2)
        q.clear()
        #expect(q.visibleOrder == [2] && q.current == 2)
        var idle = PlayQueue([1, 2, 3])
        idle.clear()
        #expect(idle.isEmpty)
    }

    @Test("play: an unqueued episode goes to the head; a queued one stays put")
    func play() {
        var q = PlayQueue([1, 2, 3])
        q.play(2)
        #expect(q.visibleOrder == [1, 2, 3] && q.current == 2)
        q.play(9)
        #expect(q.visibleOrder == [9, 1, 2, 3] && q.current == 9)
        let r18 = q.next()
        #expect(r18 == 1)
    }

    // MARK: - Advancing

    @Test("next walks the queue and stops at the end with repeat off")
    func next() {
        var q = PlayQueue([1, 2, 3])
        let r19 = q.next()
        #expect(r19 == 1, "nothing current: the first")
        let r20 = q.next()
        #expect(r20 == 2)
        let r21 = q.next()
        #expect(r21 == 3)
        let r22 = q.next()
        #expect(r22 == nil)
        #expect(q.current == 3, "stopping keeps the last episode current")
        q.setRepeat(.one)
        let r23 = q.next()
        #expect(r23 == nil, "repeat-one does not wrap an explicit next")
        q.setRepeat(.all)
        let r24 = q.next()
        #expect(r24 == 1)
    }

    @Test("previous restarts after 3 s, else goes back one")
    func previous() {
        var q = PlayQueue([1, 2, 3], current: 2)
        let r25 = q.previous(position: 10)
        #expect(r25 == .restart)
        #expect(q.current == 2)
        let r26 = q.previous(position: 3.01)
        #expect(r26 == .restart)
        let r27 = q.previous(position: 2)
        #expect(r27 == .play(1))
        #expect(q.current == 1)
        let r28 = q.previous(position: 3)
        #expect(r28 == .restart, "at the head with repeat off: restart")
        #expect(q.current == 1)
        q.setRepeat(.all)
        let r29 = q.previous(position: 0)
        #expect(r29 == .play(3), "repeat-all wraps back to the last")
        var idle = PlayQueue([1, 2])
        let none = idle.previous(position: 0)
        #expect(none == .nothing, "nothing current")
    }

    @Test("episode ended: repeat off stops, one repeats, all starts over")
    func ended() {
        var q = PlayQueue([1, 2], current: 1)
        let r30 = q.episodeEnded()
        #expect(r30 == 2)
        let r31 = q.episodeEnded()
        #expect(r31 == nil)
        q.setRepeat(.one)
        let r32 = q.episodeEnded()
        #expect(r32 == 2)
        let r33 = q.episodeEnded()
        #expect(r33 == 2)
        q.setRepeat(.all)
        let r34 = q.episodeEnded()
        #expect(r34 == 1)
        let r35 = q.episodeEnded()
        #expect(r35 == 2)
        let r36 = q.episodeEnded()
        #expect(r36 == 1)
    }

    // MARK: - Shuffle

    @Test("shuffle puts the current episode first and turning it off restores the order")
    func shuffle() {
        var rng = SplitMix64(seed: 42)
        var q = PlayQueue(Array(1...20), current: 7)
        q.setShuffle(true, using: &rng)
        #expect(q.isShuffled)
        #expect(q.visibleOrder.first == 7)
        #expect(q.visibleOrder.sorted() == Array(1...20))
        #expect(q.visibleOrder != Array(1...20), "twenty items shuffled to the identity: seed 42 does not")
        let shuffled = q.visibleOrder
        q.setShuffle(true, using: &rng)
        #expect(q.visibleOrder == shuffled, "already on: no reshuffle")
        q.next(); q.next()
        let playing = q.current
        q.setShuffle(false, using: &rng)
        #expect(q.visibleOrder == Array(1...20))
        #expect(q.current == playing)
    }

    @Test("the same seed gives the same shuffle")
    func seeded() {
        var a = PlayQueue(Array(1...30)), b = a
        var r1 = SplitMix64(seed: 9), r2 = SplitMix64(seed: 9)
        a.setShuffle(true, using: &r1)
        b.setShuffle(true, using: &r2)
        #expect(a == b)
    }

    @Test("play next while shuffled is next in both orders")
    func playNextShuffled() {
        var rng = SplitMix64(seed: 3)
        var q = PlayQueue([1, 2, 3, 4, 5], current: 3)
        q.setShuffle(true, using: &rng)
        q.add(9, at: .next)
        #expect(q.visibleOrder[1] == 9)
        q.setShuffle(false, using: &rng)
        #expect(q.visibleOrder == [1, 2, 3, 9, 4, 5])
    }

    // MARK: - Codable

    @Test("repeat modes are spelled off, one, all")
    func repeatCoding() throws {
        let data = try JSONEncoder().encode(RepeatMode.allCases)
        #expect(String(decoding: data, as: UTF8.self) == #"["off","one","all"]"#)
    }

    @Test("a queue survives JSON and a damaged one is repaired")
    func coding() throws {
        var rng = SplitMix64(seed: 5)
        var q = PlayQueue([5, 6, 7, 8], current: 6, repeatMode: .all)
        q.setShuffle(true, using: &rng)
        let back = try JSONDecoder().decode(PlayQueue.self, from: JSONEncoder().encode(q))
        #expect(back == q)
        let damaged = #"{"order":[1,2,2,3],"shuffled":[3,1],"current":9,"repeat":"one"}"#
        let repaired = try JSONDecoder().decode(PlayQueue.self, from: Data(damaged.utf8))
        #expect(repaired.order == [1, 2, 3])
        #expect(repaired.shuffledOrder == nil && repaired.current == nil && repaired.repeatMode == .one)
    }

    // MARK: - Properties

    /// Thousands of random operation sequences against a plain model of what the listener did:
    /// the ids queued are exactly those added (or played) minus those removed, never duplicated;
    /// the original order is kept through any shuffle; repeat rules hold at every step.
    @Test("random operation sequences keep every promise")
    func properties() throws {
        for seed in UInt64(0)..<2_500 {
            try runSequence(seed: seed)
        }
    }

    /// Shuffle on, any amount of listening and dragging, shuffle off: the order is back exactly.
    @Test("shuffle off restores the original order after any listening")
    func shuffleRoundTrip() throws {
        for seed in UInt64(0)..<2_000 {
            var rng = SplitMix64(seed: seed &+ 1_000_000)
            let ids = (0..<Int.random(in: 0...30, using: &rng)).map { _ in Int64.random(in: 1...40, using: &rng) }
            var q = PlayQueue(ids)
            if !q.isEmpty, Bool.random(using: &rng) { q.play(q.order.randomElement(using: &rng)!) }
            let before = q.order
            q.setShuffle(true, using: &rng)
            try #require(q.current == nil || q.visibleOrder.first == q.current, "seed \(seed)")
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: q.next()
                case 1: _ = q.previous(position: Double.random(in: 0...6, using: &rng))
                case 2: q.episodeEnded()
                case 3: q.setRepeat(RepeatMode.allCases.randomElement(using: &rng)!)
                default:
                    if !q.isEmpty {
                        q.move(from: Int.random(in: 0..<q.count, using: &rng), to: Int.random(in: 0..<q.count, using: &rng))
                    }
                }
            }
            let playing = q.current
            q.setShuffle(false, using: &rng)
            try #require(q.visibleOrder == before, "seed \(seed)")
            try #require(q.current == playing, "seed \(seed)")
        }
    }

    /// One random sequence of up to 60 operations, checked after every step.
    private func runSequence(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var q = PlayQueue()
        // The model: the original order as the listener built it, and whether shuffle is on.
        var original: [Int64] = []
        var shuffled = false
        let steps = Int.random(in: 1...60, using: &rng)
        for step in 0..<steps {
            let at = "seed \(seed) step \(step)"
            let id = Int64.random(in: 1...15, using: &rng)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0, 1:
                let placement: PlayQueue.Placement = Bool.random(using: &rng) ? .end : .next
                q.add(id, at: placement)
                if id != q.current {
                    original.removeAll { $0 == id }
                    let slot = placement == .end ? original.count
                        : (q.current.flatMap { c in original.firstIndex(of: c).map { $0 + 1 } } ?? 0)
                    original.insert(id, at: slot)
                }
            case 2:
                let visible = q.visibleOrder
                let expectedCurrent: Int64? = {
                    guard id == q.current, let i = visible.firstIndex(of: id) else { return q.current }
                    return i + 1 < visible.count ? visible[i + 1] : nil
                }()
                let wasQueued = original.contains(id)
                let r37 = q.remove(id)
                try #require(r37 == wasQueued, "\(at)")
                original.removeAll { $0 == id }
                try #require(q.current == expectedCurrent, "\(at): remove hands over to the next")
            case 3:
                guard !q.isEmpty else { continue }
                let from = Int.random(in: 0..<q.count, using: &rng), to = Int.random(in: 0..<q.count, using: &rng)
                let playing = q.current
                var expected = q.visibleOrder
                expected.insert(expected.remove(at: from), at: to)
                let r38 = q.move(from: from, to: to)
                try #require(r38, "\(at)")
                try #require(q.visibleOrder == expected && q.current == playing, "\(at): move")
                if !shuffled { original = expected }
            case 4:
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    q.clear()
                    original = q.current.map { [$0] } ?? []
                }
            case 5:
                q.play(id)
                if !original.contains(id) { original.insert(id, at: 0) }
                try #require(q.current == id, "\(at): play")
            case 6:
                let before = q.current, wasLast = q.currentIndex == q.count - 1
                let got = q.next()
                if let got { try #require(q.current == got && original.contains(got), "\(at): next") }
                if got == nil { try #require(q.isEmpty || (wasLast && q.repeatMode != .all && q.current == before), "\(at): next stops only at the end") }
            case 7:
                let position = Double.random(in: 0...6, using: &rng)
                let before = q.current
                switch q.previous(position: position) {
                case .nothing: try #require(before == nil, "\(at)")
                case .restart: try #require(q.current == before && before != nil, "\(at)")
                case .play(let other):
                    try #require(position <= PlayQueue.restartThreshold && q.current == other, "\(at): previous")
                }
            case 8, 9:
                let before = q.current, wasLast = q.currentIndex == q.count - 1
                let got = q.episodeEnded()
                switch q.repeatMode {
                case .all: try #require(q.isEmpty || got != nil, "\(at): repeat-all never stops")
                case .one: if let before { try #require(got == before && q.current == before, "\(at): repeat-one never advances") }
                case .off: try #require(got != nil || q.isEmpty || wasLast, "\(at): stops only at the end")
                }
            case 10:
                let on = Bool.random(using: &rng)
                q.setShuffle(on, using: &rng)
                if on, !shuffled, let c = q.current {
                    try #require(q.visibleOrder.first == c, "\(at): shuffle keeps the current item first")
                }
                shuffled = on
            default:
                q.setRepeat(RepeatMode.allCases.randomElement(using: &rng)!)
            }
            // After every step: nothing lost, nothing duplicated, the original order kept.
            try #require(q.order == original, "\(at): original order \(q.order) vs \(original)")
            try #require(q.visibleOrder.count == Set(q.visibleOrder).count, "\(at): duplicate")
            try #require(q.visibleOrder.sorted() == original.sorted(), "\(at): visible is a permutation")
            try #require(q.isShuffled == shuffled, "\(at)")
            if !shuffled { try #require(q.visibleOrder == original, "\(at): shuffle off shows the original") }
            if let c = q.current { try #require(original.contains(c), "\(at): current is queued") }
        }
    }
}
