import EarshotCore
import Foundation
import Testing

@Suite("Sync: episode actions read and written")
struct EpisodeActionTests {
    func decode(_ json: String) throws -> [EpisodeAction] {
        try EpisodeAction.decodeUpload(JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test("AntennaPod's upload: lower-case action, guid, device, -1 for unknown started and total")
    func antennaPod() throws {
        let actions = try decode("""
            [{"podcast":"https://ex.com/feed.xml","episode":"https://ex.com/1.mp3","guid":"g-1","device":"antennapod_pixel",
              "action":"play","timestamp":"2026-12-01T08:00:00","started":-1,"position":754,"total":-1},
             {"podcast":"https://ex.com/feed.xml","episode":"https://ex.com/2.mp3","action":"DOWNLOAD","timestamp":"2026-12-01T08:01:00"}]
            """)
        #expect(actions == [
            EpisodeAction(podcast: "https://ex.com/feed.xml", episode: "https://ex.com/1.mp3", guid: "g-1", device: "antennapod_pixel",
                          kind: .play, timestamp: SyncTime.parse("2026-12-01T08:00:00"), started: nil, position: 754, total: nil),
            EpisodeAction(podcast: "https://ex.com/feed.xml", episode: "https://ex.com/2.mp3", kind: .download,
                          timestamp: SyncTime.parse("2026-12-01T08:01:00")),
        ])
    }

    @Test("numbers as strings, times as Unix seconds or milliseconds, no timestamp at all")
    func liberal() throws {
        let actions = try decode("""
            [{"podcast":"p","episode":"e","action":"play","position":"12","total":"100","started":"0","timestamp":1700000000},
             {"podcast":"p","episode":"e","action":"new","timestamp":1700000000123},
             {"podcast":"p","episode":"e","action":"delete"}]
            """)
        #expect(actions[0].position == 12 && actions[0].total == 100 && actions[0].started == 0 && actions[0].timestamp == 1_700_000_000)
        #expect(actions[1].timestamp == 1_700_000_000.123)
        #expect(actions[2].timestamp == nil && actions[2].kind == .delete)
    }

    @Test("what cannot be read refuses the upload and names the action")
    func refusals() {
        let cases: [(String, String)] = [
            (#"{"podcast":"p"}"#, "array"),
            (#"[{"episode":"e","action":"play","position":1}]"#, "podcast"),
            (#"[{"podcast":"p","action":"play","position":1}]"#, "episode"),
            (#"[{"podcast":"p","episode":"e","action":"like"}]"#, "action"),
            (#"[{"podcast":"p","episode":"e","action":"play"}]"#, "position"),
            (#"[{"podcast":"p","episode":"e","action":"play","position":-7}]"#, "position"),
            (#"[{"podcast":"p","episode":"e","action":"play","position":"x"}]"#, "position"),
            (#"[{"podcast":"p","episode":"e","action":"new"},{"podcast":"p","episode":"e","action":"new","timestamp":"soon"}]"#, "timestamp"),
        ]
        for (json, word) in cases {
            #expect(throws: EpisodeActionError.self, "\(json)") { try decode(json) }
            do { _ = try decode(json) } catch { #expect("\(error)".contains(word), "\(json): \(error)") }
        }
        do { _ = try decode(#"[{"podcast":"p","episode":"e","action":"new"},{"podcast":"p"}]"#) } catch let error as EpisodeActionError {
            #expect(error.index == 1)
        } catch { Issue.record("\(error)") }
    }

    @Test("written as mygpoclient accepts it: lower case, no zone, play fields only on play and only when known")
    func writing() {
        let play = EpisodeAction(podcast: "p", episode: "e", guid: "g", device: "d", kind: .play, timestamp: 1_260_608_400,
                                 started: nil, position: 30, total: nil)
        #expect(play.json == .object(["podcast": .string("p"), "episode": .string("e"), "guid": .string("g"), "device": .string("d"),
                                      "action": .string("play"), "timestamp": .string("2009-12-12T09:00:00"), "position": .number(30)]))
        let new = EpisodeAction(podcast: "p", episode: "e", kind: .new, timestamp: 0, started: 1, position: 2, total: 3)
        if case .object(let fields) = new.json {
            #expect(fields["position"] == nil && fields["started"] == nil && fields["total"] == nil && fields["action"] == .string("new"))
        } else { Issue.record("not an object") }
    }
}
