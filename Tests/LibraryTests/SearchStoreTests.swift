import EarshotCore
import Foundation
@testable import Library
import TestSupport
import Testing

/// Library search on a real SQLite file with FTS5: what is found, in which order, with which
/// marks; kept up to date by subscribe, refresh and unsubscribe; typed input never an error.
@Suite("Library search (FTS5)")
struct SearchStoreTests {
    static func episode(_ guid: String, _ title: String, notes: String, hours: Double = 0) -> FeedItem {
        FeedItem(guid: guid, title: title, summary: notes, enclosureURL: "https://example.org/\(guid).mp3",
                 duration: 600, published: date(1_700_000_000 + hours * 3_600))
    }

    static let kitchen = FeedContent(title: "Kitchen Radio", author: "Zoë Müller", items: [
        episode("k1", "Bread at home", notes: "We bake sourdough and talk about the Café on the corner.", hours: 1),
        episode("k2", "The linux kitchen", notes: "Cooking with a laptop on the counter.", hours: 2),
        episode("k3", "Soup season", notes: "Why linux users love soup, and a recipe for leek soup.", hours: 3),
    ])
    static let tech = FeedContent(title: "Linux Unplugged", author: "Jupiter Broadcasting", items: [
        episode("t1", "Kernel news", notes: "The new kernel, the new scheduler and a word on sourdough starters.", hours: 4),
    ])

    /// The marked part of a snippet, as the client would cut it (UTF-16 offsets).
    static func marked(_ snippet: SearchSnippet) -> [String] {
        let units = Array(snippet.text.utf16)
        return snippet.marks.map { String(decoding: units[$0[0]..<$0[1]], as: UTF16.self) }
    }

    @Test("podcasts by title and author, episodes by title before notes, snippets marked as ranges")
    func findsAndRanks() async throws {
        try await withStore { store, _ in
            _ = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
            _ = try await store.subscribe(feedURL: "https://example.org/linux.xml", content: Self.tech)
            let linux = try await store.search("linux")
            #expect(linux.podcasts.map(\.podcast.title) == ["Linux Unplugged"])
            #expect(Self.marked(linux.podcasts[0].snippet) == ["Linux"])
            #expect(linux.episodes.map(\.episode.title) == ["The linux kitchen", "Soup season"], "title hit first")
            #expect(linux.episodes.map(\.field) == [.title, .notes])
            #expect(Self.marked(linux.episodes[1].snippet) == ["linux"])
            #expect(linux.episodes[1].snippet.text.contains("users love soup"))
            #expect(linux.episodes.allSatisfy { $0.at == nil })

            let author = try await store.search("muller")
            #expect(author.podcasts.map(\.podcast.title) == ["Kitchen Radio"], "diacritics folded: Müller")
            #expect(Self.marked(author.podcasts[0].snippet) == ["Müller"], "the author is the snippet when the title has no hit")
            #expect(try await store.search("cafe").episodes.map(\.episode.title) == ["Bread at home"])
            #expect(try await store.search("CAFÉ").episodes.map(\.episode.title) == ["Bread at home"])
            #expect(try await store.search("zoe").podcasts.count == 1)
        }
    }

    @Test("phrases, prefixes, every word required; nothing typed can be an FTS error")
    func queries() async throws {
        try await withStore { store, _ in
            _ = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
            _ = try await store.subscribe(feedURL: "https://example.org/linux.xml", content: Self.tech)
            #expect(try await store.search("\"leek soup\"").episodes.map(\.episode.title) == ["Soup season"])
            #expect(try await store.search("\"soup leek\"").episodes.isEmpty, "a phrase keeps its order")
            #expect(try await store.search("sour*").episodes.map(\.episode.title).sorted() == ["Bread at home", "Kernel news"])
            #expect(try await store.search("sour").episodes.isEmpty, "no prefix without the star")
            #expect(try await store.search("soup linux").episodes.map(\.episode.title) == ["Soup season"])
            #expect(try await store.search("kernel AND").episodes.map(\.episode.title) == ["Kernel news"],
                    "AND is a word here (the notes say \"and\"), not an operator left without its right side")
            #expect(try await store.search("kernel NOT").episodes.isEmpty, "NOT is a word the notes lack")
            for typed in ["\"", "*", "-", "NOT", "a:b", "(linux", "linux)", "^linux", "NEAR(a b)", "\"unclosed linux",
                          "linux OR", "OR", "\u{0}", "💥", "' OR 1=1 --", "{title}: x", "linux*\"*", "", "   "] {
                _ = try await store.search(typed) // throws on an FTS syntax error: the test fails
            }
            #expect(try await store.search("\"linux kitchen").episodes.map(\.episode.title) == ["The linux kitchen"],
                    "an unclosed quote closes at the end")
            var random = SplitMix64(seed: 13)
            let alphabet = Array("ab linux\"*-:()^{}+.,'NEAROTD\u{0301}é \t")
            for _ in 0..<1_500 {
                let length = Int(random.next() % 24)
                let typed = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                do { _ = try await store.search(typed) } catch { Issue.record("\(typed.debugDescription): \(error)") }
            }
        }
    }

    @Test("kept up to date: refresh changes what is found, unsubscribe hides, subscribing again shows")
    func keptUpToDate() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
            #expect(try await store.search("bread").episodes.count == 1)
            var changed = Self.kitchen
            changed.title = "Bakery Radio"
            changed.items[0].title = "Rye at home"
            changed.items[0].summary = "Only rye this time."
            changed.items.append(Self.episode("k4", "Pretzel day", notes: "Lye and salt.", hours: 5))
            _ = try await store.storeRefresh(podcastID: podcast.id, content: changed, etag: nil, lastModified: nil)
            #expect(try await store.search("bread").episodes.isEmpty, "the old title and notes left the index")
            #expect(try await store.search("rye").episodes.map(\.episode.title) == ["Rye at home"])
            #expect(try await store.search("pretzel").episodes.map(\.episode.title) == ["Pretzel day"])
            #expect(try await store.search("bakery").podcasts.map(\.podcast.title) == ["Bakery Radio"])
            #expect(try await store.search("kitchen").podcasts.isEmpty)
            #expect(try await store.unsubscribe(podcastID: podcast.id))
            #expect(try await store.search("rye") == SearchResults(), "an unsubscribed podcast leaves search")
            _ = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: changed)
            #expect(try await store.search("rye").episodes.count == 1)
            // Rows deleted for good leave the index too (the triggers keep the external content in step).
            try await store.withDatabase { db in try db.run("DELETE FROM podcasts") }
            #expect(try await store.search("rye") == SearchResults())
            let integrity = try await store.withDatabase { db in
                try db.run("INSERT INTO episodes_fts(episodes_fts, rank) VALUES('integrity-check', 1)")
                try db.run("INSERT INTO podcasts_fts(podcasts_fts, rank) VALUES('integrity-check', 1)")
                return true
            }
            #expect(integrity, "the index matches its tables")
        }
    }

    @Test("transcripts: a word said is found with its time; a new transcript replaces the old one's words")
    func transcripts() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
            let soup = try #require(try await store.episodes(podcastID: podcast.id).first { $0.title == "Soup season" })
            let cues = [TranscriptCue(start: 0, end: 4, speaker: "Zoë", text: "Welcome back to the kitchen."),
                        TranscriptCue(start: 754.5, end: 760, speaker: "Sam", text: "My grandmother's borscht was legendary."),
                        TranscriptCue(start: 800, end: 805, speaker: nil, text: "Borscht again, yes.")]
            try await store.storeTranscript(episodeID: soup.id, url: "https://example.org/k3.vtt", format: "webvtt", cues: cues)
            #expect(try await store.cachedTranscript(episodeID: soup.id, url: "https://example.org/k3.vtt") == cues)
            #expect(try await store.cachedTranscript(episodeID: soup.id, url: "https://example.org/other.vtt") == nil)
            let found = try await store.search("borscht")
            #expect(found.episodes.count == 1, "one hit per episode: its best cue")
            let hit = try #require(found.episodes.first)
            #expect(hit.episode.id == soup.id && hit.field == .transcript && [754.5, 800].contains(hit.at ?? -1))
            #expect(Self.marked(hit.snippet).map { $0.lowercased() } == ["borscht"])
            #expect(try await store.search("legendary").episodes.first?.at == 754.5)

            try await store.storeTranscript(episodeID: soup.id, url: "https://example.org/k3.vtt", format: "webvtt",
                                            cues: [TranscriptCue(start: 1, text: "Gazpacho, cold.")])
            #expect(try await store.search("borscht").episodes.isEmpty)
            #expect(try await store.search("gazpacho").episodes.first?.at == 1)
            await #expect(throws: LibraryError.episodeNotFound(999_999)) {
                try await store.storeTranscript(episodeID: 999_999, url: "u", format: "text", cues: [])
            }
            try await store.withDatabase { db in try db.run("DELETE FROM episodes WHERE id = ?", [soup.id]) }
            #expect(try await store.search("gazpacho") == SearchResults(), "cues go with their episode")
            let cuesLeft = try await store.withDatabase { db in try db.fetchOne("SELECT count(*) FROM transcript_cues") { $0.int64(at: 0) } }
            #expect(cuesLeft == 0)
        }
    }

    @Test("search results filtered like lists: unplayed, in progress, played, downloaded")
    func filtered() async throws {
        try await withStore { store, _ in
            let podcast = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
            let ids = Dictionary(uniqueKeysWithValues: try await store.episodes(podcastID: podcast.id).map { ($0.guid, $0.id) })
            try await store.setPlayed(episodeID: ids["k3"]!, played: true)
            try await store.savePosition(episodeID: ids["k2"]!, position: 30)
            try await store.storeTranscript(episodeID: ids["k3"]!, url: "u", format: "text", cues: [TranscriptCue(start: 3, text: "linux again")])
            func titles(_ filter: EpisodeQuery.Filter?) async throws -> [String] {
                try await store.search("linux", filter: filter).episodes.map(\.episode.title)
            }
            #expect(try await titles(nil) == ["The linux kitchen", "Soup season", "Soup season"], "title, notes, transcript")
            #expect(try await titles(.played) == ["Soup season", "Soup season"])
            #expect(try await titles(.unplayed) == ["The linux kitchen"])
            #expect(try await titles(.inprogress) == ["The linux kitchen"])
            #expect(try await titles(.downloaded).isEmpty)
            #expect(try await store.search("kitchen", filter: .played).podcasts.count == 1, "podcasts are listed as ever")
        }
    }

    @Test("a word in more episodes than are ranked: title hits first, then the rest, newest first")
    func commonWords() async throws {
        try await withStore { store, _ in
            let count = LibraryStore.rankWindow + 100
            let items = (0..<count).map { index in
                Self.episode("c\(index)", index % 1_000 == 7 ? "Common in the title \(index)" : "Episode \(index)",
                             notes: "a common word and more", hours: Double(index))
            }
            _ = try await store.subscribe(feedURL: "https://example.org/common.xml", content: FeedContent(title: "Common", items: items))
            let found = try await store.search("common", limit: 8).episodes
            let titled = (0..<count).filter { $0 % 1_000 == 7 }.reversed().map { "Common in the title \($0)" }
            #expect(found.map(\.episode.title) == Array(titled) + ["Episode \(count - 1)", "Episode \(count - 2)", "Episode \(count - 3)"])
            #expect(found.prefix(titled.count).allSatisfy { $0.field == .title } && found.last?.field == .notes)
            #expect(try await store.search("common", limit: 3, filter: .played).episodes.isEmpty, "filters still apply")
        }
    }

    @Test("a feed listing a guid twice (the second wins) leaves a sound index with the second's words")
    func duplicateGUIDs() async throws {
        try await withStore { store, _ in
            let feed = FeedContent(title: "Twice", items: [
                Self.episode("x", "Draft title", notes: "first words", hours: 1),
                Self.episode("y", "Other", notes: "between", hours: 2),
                Self.episode("x", "Final title", notes: "second words", hours: 1),
            ])
            _ = try await store.subscribe(feedURL: "https://example.org/twice.xml", content: feed)
            #expect(try await store.search("final").episodes.map(\.episode.title) == ["Final title"])
            #expect(try await store.search("draft").episodes.isEmpty)
            #expect(try await store.search("between").episodes.count == 1)
            let sound = try await store.withDatabase { db in
                try db.run("INSERT INTO episodes_fts(episodes_fts, rank) VALUES('integrity-check', 1)")
                return true
            }
            #expect(sound)
        }
    }

    @Test("a library from before search is indexed when it opens")
    func indexesOldLibraries() async throws {
        try await withDirectory { directory in
            let path = directory.file("library.sqlite").path
            do {
                let store = try LibraryStore(path: path)
                _ = try await store.subscribe(feedURL: "https://example.org/kitchen.xml", content: Self.kitchen)
                // Back to the schema of v6: no index, no triggers, the migrations not recorded.
                try await store.withDatabase { db in
                    try db.execute("""
                        DROP TRIGGER podcasts_fts_insert; DROP TRIGGER podcasts_fts_delete; DROP TRIGGER podcasts_fts_update;
                        DROP TRIGGER episodes_fts_delete; DROP TRIGGER episodes_fts_update;
                        DROP TABLE podcasts_fts; DROP TABLE episodes_fts; DROP TABLE transcript_fts;
                        DROP TABLE transcript_cues; DROP TABLE transcripts;
                        DELETE FROM migrations WHERE name IN ('v7-search', 'v8-transcripts');
                        """)
                }
            }
            let reopened = try LibraryStore(path: path)
            #expect(try await reopened.search("sourdough").episodes.map(\.episode.title) == ["Bread at home"])
            #expect(try await reopened.search("radio").podcasts.count == 1)
        }
    }
}
