import EarshotCore
import Foundation
import Testing

/// The directory's choices as values: whose key signs, which provider answers by default, what
/// an edit means, what browsers may see; and iTunes' chart read into ids then ordered results.
@Suite("Directory settings and the iTunes chart")
struct DirectorySettingsTests {
    let saved = PodcastIndexCredentials(key: "SAVEDKEY", secret: "saved-secret")
    let environment = PodcastIndexCredentials(key: "ENVKEY", secret: "env-secret")

    @Test("the saved key wins over the environment's; with any key Podcast Index is the default")
    func precedence() {
        #expect(DirectorySettings().defaultProvider == .itunes && DirectorySettings().credentials == nil)
        #expect(DirectorySettings(environment: environment).credentials == environment)
        #expect(DirectorySettings(saved: saved, environment: environment).credentials == saved)
        #expect(DirectorySettings(saved: saved).defaultProvider == .podcastindex)
        #expect(DirectorySettings().provider(named: nil) == .success(.itunes))
        #expect(DirectorySettings(saved: saved).provider(named: "") == .success(.podcastindex))
        #expect(DirectorySettings(saved: saved).provider(named: "itunes") == .success(.itunes), "asked for by name")
        guard case .failure(let refused) = DirectorySettings().provider(named: "podcastindex") else { Issue.record("no key"); return }
        #expect(refused.message.hasPrefix("Podcast Index needs an API key and secret"))
        guard case .failure(let unknown) = DirectorySettings().provider(named: "gpodder") else { Issue.record("unknown"); return }
        #expect(unknown.message == #"provider is "itunes" or "podcastindex", not "gpodder""#)
    }

    @Test("edits: both saves (trimmed), both empty forgets, one alone or multi-line is refused")
    func edits() {
        #expect(DirectorySettings.edit(key: " K ", secret: "\tS\n") == .success(PodcastIndexCredentials(key: "K", secret: "S")))
        #expect(DirectorySettings.edit(key: "", secret: "  ") == .success(nil))
        #expect(DirectorySettings.edit(key: "K", secret: "") == .failure(.init("the Podcast Index secret is missing")))
        #expect(DirectorySettings.edit(key: "", secret: "S") == .failure(.init("the Podcast Index key is missing")))
        guard case .failure = DirectorySettings.edit(key: "K\nX", secret: "S") else { Issue.record("a newline inside"); return }
        guard case .failure = DirectorySettings.edit(key: String(repeating: "k", count: 201), secret: "S") else { Issue.record("too long"); return }
    }

    @Test("what browsers see: four characters of the key, where it came from, never the secret")
    func summary() throws {
        let shown = DirectorySettings(saved: saved, environment: environment).summary
        #expect(shown.provider == .podcastindex && shown.podcastIndex == .init(configured: true, key: "SAVE…", from: .settings))
        #expect(DirectorySettings(environment: environment).summary.podcastIndex.from == .environment)
        let text = String(decoding: try JSONEncoder().encode(DirectorySettings().summary), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let index = try #require(object["podcastIndex"] as? [String: Any])
        #expect(index.keys.sorted() == ["configured", "from", "key"], "nulls are sent, not left out: \(text)")
        let full = String(decoding: try JSONEncoder().encode(DirectorySettings(saved: saved).summary), as: UTF8.self)
        #expect(!full.contains("saved-secret") && !full.contains("SAVEDKEY"))
    }

    @Test("the chart: ids in order, duplicates and non-numbers dropped, one entry as an object, none at all")
    func chart() throws {
        let chart = #"{"feed": {"entry": [{"id": {"attributes": {"im:id": "9"}}}, {"id": {"attributes": {"im:id": "9"}}},"#
            + #"{"id": {"attributes": {"im:id": "x1"}}}, {"id": {}}, {"id": {"attributes": {"im:id": "4"}}}]}}"#
        #expect(try DirectoryAnswer.chartIDs(Data(chart.utf8)) == ["9", "4"])
        #expect(try DirectoryAnswer.chartIDs(Data(#"{"feed": {"entry": {"id": {"attributes": {"im:id": "7"}}}}}"#.utf8)) == ["7"])
        #expect(try DirectoryAnswer.chartIDs(Data(#"{"feed": {}}"#.utf8)) == [])
        #expect(throws: DirectoryAnswer.Unreadable(provider: .itunes)) { _ = try DirectoryAnswer.chartIDs(Data("[]".utf8)) }
        let lookup = #"{"results": [{"collectionId": 4, "collectionName": "Four", "feedUrl": "https://e.org/4"},"#
            + #"{"collectionId": 5, "collectionName": "Five", "feedUrl": "https://e.org/5"},"#
            + #"{"collectionId": 9, "collectionName": "Nine", "feedUrl": "https://e.org/9"}, {"collectionName": "No id", "feedUrl": "https://e.org/x"}]}"#
        #expect(try DirectoryAnswer.lookupResults(Data(lookup.utf8), order: ["9", "4"]).map(\.title) == ["Nine", "Four"])
        let request = DirectoryRequest.lookup(base: "http://h/", ids: ["9", "4"], userAgent: "UA")
        #expect(request.url == "http://h/lookup?entity=podcast&id=9,4")
        #expect(DirectoryRequest.popular(.itunes, base: "http://h", unixTime: 0, userAgent: "UA").url
                == "http://h/us/rss/toppodcasts/limit=30/explicit=true/json")
        let trending = DirectoryRequest.popular(.podcastindex, base: "http://h", credentials: saved, unixTime: 7, userAgent: "UA")
        #expect(trending.url == "http://h/api/1.0/podcasts/trending?max=30")
        #expect(trending.headers["Authorization"] == SHA1.hex("SAVEDKEYsaved-secret7"))
    }
}
