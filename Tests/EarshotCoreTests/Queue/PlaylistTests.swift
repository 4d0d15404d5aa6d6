import EarshotCore
import Foundation
import TestSupport
import Testing

@Suite("Playlists: order, names, commands, loading into Up Next")
struct PlaylistTests {
    // MARK: - PlaylistOrder

    @Test("add appends new ids only; adding again is a no-op that keeps the place")
    func add() {
        var p = PlaylistOrder([3, 1, 3, 2])
        #expect(p.items == [3, 1, 2], "repeats dropped on creation")
        let added = p.add([4, 1, 5, 4])
        #expect(added == [4, 5])
        #expect(p.items == [3, 1, 2, 4, 5])
        let again = p.add([3])
        #expect(again.isEmpty)
        #expect(p.items == [3, 1, 2, 4, 5])
    }

    @Test("remove takes one id out and says whether it was there")
    func remove() {
        var p = PlaylistOrder([1, 2, 3])
        let removed = p.remove(2)
        #expect(removed && p.items == [1, 3])
        let again = p.remove(2)
        #expect(!again && p.items == [1, 3])
    }

    @Test("move reorders; out-of-range positions change nothing")
    func move() {
        var p = PlaylistOrder([1, 2, 3, 4])
        let m1 = p.move(from: 0, to: 3)
        #expect(m1 && p.items == [2, 3, 4, 1])
        let m2 = p.move(from: 3, to: 1)
        #expect(m2 && p.items == [2, 1, 3, 4])
        let m3 = p.move(from: 2, to: 2)
        #expect(m3 && p.items == [2, 1, 3, 4])
        let m4 = p.move(from: 4, to: 0), m5 = p.move(from: 0, to: -1)
        #expect(!m4 && !m5 && p.items == [2, 1, 3, 4])
    }

    @Test("moves count shown items only; hidden items keep their slots")
    func moveWithHidden() {
        var p = PlaylistOrder([1, 9, 2, 3, 8, 4])
        let hidden: Set<Int64> = [8, 9]
        #expect(p.shown { !hidden.contains($0) } == [1, 2, 3, 4])
        let moved = p.move(from: 0, to: 3, isShown: { !hidden.contains($0) })
        #expect(moved && p.items == [2, 9, 3, 4, 8, 1])
        let beyond = p.move(from: 4, to: 0, isShown: { !hidden.contains($0) })
        #expect(!beyond, "only four shown")
    }

    /// Thousands of random sequences against a plain model: the playlist holds exactly the ids
    /// added and not removed, each once; a move lands the item where asked among the shown ones
    /// and leaves every hidden item at its index.
    @Test("random operation sequences keep every promise")
    func properties() throws {
        for seed in UInt64(0)..<3_000 {
            var rng = SplitMix64(seed: seed)
            var p = PlaylistOrder()
            var model: [Int64] = []
            let hidden = Set((1...20).filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }.map(Int64.init))
            let isShown: (Int64) -> Bool = { !hidden.contains($0) }
            for step in 0..<Int.random(in: 1...50, using: &rng) {
                let at = "seed \(seed) step \(step)"
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    let ids = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int64.random(in: 1...20, using: &rng) }
                    let added = p.add(ids)
                    var expected: [Int64] = []
                    for id in ids where !model.contains(id) && !expected.contains(id) { expected.append(id) }
                    try #require(added == expected, "\(at)")
                    model += expected
                case 1:
                    let id = Int64.random(in: 1...20, using: &rng)
                    let removed = p.remove(id)
                    try #require(removed == model.contains(id), "\(at)")
                    model.removeAll { $0 == id }
                default:
                    let shownBefore = p.shown(isShown)
                    let from = Int.random(in: -1...shownBefore.count, using: &rng)
                    let to = Int.random(in: -1...shownBefore.count, using: &rng)
                    let hiddenAt = p.items.indices.filter { !isShown(p.items[$0]) }.map { ($0, p.items[$0]) }
                    let moved = p.move(from: from, to: to, isShown: isShown)
                    let valid = shownBefore.indices.contains(from) && shownBefore.indices.contains(to)
                    try #require(moved == valid, "\(at)")
                    if valid {
                        var expected = shownBefore
                        expected.insert(expected.remove(at: from), at: to)
                        try #require(p.shown(isShown) == expected, "\(at)")
                        for (index, id) in hiddenAt { try #require(p.items[index] == id, "\(at): hidden \(id) moved") }
                        // The model follows the move: same multiset, new order.
                        model = p.items
                    } else {
                        try #require(p.shown(isShown) == shownBefore, "\(at)")
                    }
                }
                try #require(p.items == model, "\(at)")
                try #require(Set(p.items).count == p.items.count, "\(at): duplicate")
            }
        }
    }

    // MARK: - Names

    @Test("names are trimmed, inner white space made one space; empty, long or control names refused")
    func names() throws {
        #expect(try PlaylistName.clean("  Morning\n\tcommute  ") == "Morning commute")
        #expect(try PlaylistName.clean("Ça va 🎧") == "Ça va 🎧")
        #expect(throws: CommandError("a playlist needs a name")) { try PlaylistName.clean(" \n ") }
        #expect(throws: CommandError("a playlist name cannot contain control characters")) { try PlaylistName.clean("a\u{7}b") }
        let longest = String(repeating: "é", count: PlaylistName.maxLength)
        #expect(try PlaylistName.clean(longest) == longest)
        #expect(throws: CommandError.self) { try PlaylistName.clean(longest + "x") }
        // One key for names that differ only in case or Unicode form.
        #expect(PlaylistName.key("CAFÉ") == PlaylistName.key("cafe\u{301}"))
        #expect(PlaylistName.key("Cafe") != PlaylistName.key("Café"))
    }

    // MARK: - Commands

    @Test("every playlist command decodes", arguments: [
        (#"{"cmd":"playlist.create","name":" Walks "}"#, ClientCommand.playlist(.create(name: "Walks", episodes: []))),
        (#"{"cmd":"playlist.create","name":"W","episodes":[3,1]}"#, .playlist(.create(name: "W", episodes: [3, 1]))),
        (#"{"cmd":"playlist.rename","playlist":2,"name":"Runs"}"#, .playlist(.rename(playlist: 2, name: "Runs"))),
        (#"{"cmd":"playlist.delete","playlist":2}"#, .playlist(.delete(playlist: 2))),
        (#"{"cmd":"playlist.add","playlist":2,"episode":7}"#, .playlist(.add(playlist: 2, episodes: [7]))),
        (#"{"cmd":"playlist.add","playlist":2,"episodes":[7,8]}"#, .playlist(.add(playlist: 2, episodes: [7, 8]))),
        (#"{"cmd":"playlist.remove","playlist":2,"episode":7}"#, .playlist(.remove(playlist: 2, episode: 7))),
        (#"{"cmd":"playlist.move","playlist":2,"from":0,"to":3}"#, .playlist(.move(playlist: 2, from: 0, to: 3))),
        (#"{"cmd":"playlist.play","playlist":2}"#, .playlist(.play(playlist: 2, episode: nil))),
        (#"{"cmd":"playlist.play","playlist":2,"episode":8}"#, .playlist(.play(playlist: 2, episode: 8))),
    ])
    func decodes(frame: String, expected: ClientCommand) throws {
        #expect(try ClientCommand.decode(frame).result.get() == expected)
    }

    @Test("bad playlist commands are errors with a reason", arguments: [
        (#"{"cmd":"playlist.create"}"#, "\"playlist.create\" needs a string \"name\""),
        (#"{"cmd":"playlist.create","name":"   "}"#, "a playlist needs a name"),
        (#"{"cmd":"playlist.rename","playlist":0,"name":"x"}"#, "\"playlist.rename\" needs an id \"playlist\""),
        (#"{"cmd":"playlist.add","playlist":1}"#, "\"playlist.add\" needs \"episode\" or \"episodes\""),
        (#"{"cmd":"playlist.add","playlist":1,"episodes":[]}"#, "\"episodes\" must be a list of 1 to 1000 episode ids"),
        (#"{"cmd":"playlist.add","playlist":1,"episodes":[1.5]}"#, "\"episodes\" must hold episode ids"),
        (#"{"cmd":"playlist.add","playlist":1,"episode":"7"}"#, "\"playlist.add\" needs an id \"episode\""),
        (#"{"cmd":"playlist.move","playlist":1,"from":-1,"to":0}"#, "\"playlist.move\" needs a position \"from\" ≥ 0"),
        (#"{"cmd":"playlist.play","playlist":"x"}"#, "\"playlist.play\" needs an id \"playlist\""),
        (#"{"cmd":"playlist.shuffle","playlist":1}"#, "unknown command \"playlist.shuffle\""),
    ])
    func refuses(frame: String, message: String) {
        #expect(throws: CommandError(message)) { try ClientCommand.decode(frame).result.get() }
    }

    @Test("only play leaves the playlists as they are")
    func changes() {
        #expect(!PlaylistCommand.play(playlist: 1, episode: nil).changesPlaylists)
        #expect(PlaylistCommand.move(playlist: 1, from: 0, to: 1).changesPlaylists)
        #expect(PlaylistCommand.create(name: "x", episodes: []).changesPlaylists)
    }

    @Test("a playlist's wire form: ids, count, Unix-second dates")
    func wire() throws {
        let playlist = Playlist(id: 4, name: "Walks", created: Date(timeIntervalSince1970: 100),
                                updated: Date(timeIntervalSince1970: 200), episodeIDs: [3, 1], duration: 90)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(playlist)) as? [String: Any])
        #expect(object["episodeIds"] as? [Int] == [3, 1] && object["count"] as? Int == 2)
        #expect(object["created"] as? Double == 100 && object["updated"] as? Double == 200)
        #expect(try JSONDecoder().decode(Playlist.self, from: JSONEncoder().encode(playlist)) == playlist)
    }

    // MARK: - Loading into Up Next

    @Test("loading replaces the queue, starts at the first (or the chosen) episode, keeps repeat")
    func load() {
        var q = PlayQueue([7, 8], current: 8, repeatMode: .all)
        q.load([1, 2, 3, 2])
        #expect(q.visibleOrder == [1, 2, 3] && q.current == 1 && q.repeatMode == .all && !q.isShuffled)
        q.load([4, 5, 6], start: 5)
        #expect(q.visibleOrder == [4, 5, 6] && q.current == 5)
        q.load([4, 5], start: 9)
        #expect(q.current == 4, "a start that is not in the playlist: the first")
        q.load([])
        #expect(q.isEmpty && q.current == nil)
    }

    /// With shuffle on, the loaded playlist is shuffled with the starting episode first, and
    /// turning shuffle off gives the playlist's own order back.
    @Test("loading while shuffled: a permutation, the start first, shuffle-off restores the playlist")
    func loadShuffled() throws {
        for seed in UInt64(0)..<1_000 {
            var rng = SplitMix64(seed: seed)
            var q = PlayQueue([100, 101], current: 100)
            q.setShuffle(true, using: &rng)
            let ids = (0..<Int.random(in: 1...20, using: &rng)).map { _ in Int64.random(in: 1...30, using: &rng) }
            let playlist = PlaylistOrder(ids).items
            let start = Bool.random(using: &rng) ? playlist.randomElement(using: &rng) : nil
            q.load(ids, start: start, using: &rng)
            try #require(q.isShuffled, "seed \(seed)")
            try #require(q.order == playlist, "seed \(seed)")
            try #require(q.visibleOrder.sorted() == playlist.sorted(), "seed \(seed)")
            try #require(q.current == (start ?? playlist.first) && q.visibleOrder.first == q.current, "seed \(seed)")
            q.setShuffle(false, using: &rng)
            try #require(q.visibleOrder == playlist, "seed \(seed)")
        }
    }
}
