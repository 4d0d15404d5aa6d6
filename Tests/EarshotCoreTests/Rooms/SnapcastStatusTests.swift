import EarshotCore
import Foundation
import Testing

@Suite("Rooms: a snapserver's status, its rooms, and what joining one takes")
struct SnapcastStatusTests {
    /// `Server.GetStatus`'s `server` as Snapcast 0.26 answers it (trimmed to two groups).
    static let answer = #"""
    {"groups":[{"clients":[{"config":{"instance":1,"latency":0,"name":"","volume":{"muted":false,"percent":100}},"connected":true,
       "host":{"arch":"x86_64","ip":"127.0.0.1","mac":"02:fc:00:00:00:01","name":"vm","os":"Debian"},"id":"room1",
       "lastSeen":{"sec":1796280348,"usec":277083},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}},
      {"config":{"instance":1,"latency":0,"name":"Kitchen","volume":{"muted":true,"percent":40}},"connected":false,
       "host":{"name":"pi"},"id":"room2"}],
      "id":"g1","muted":false,"name":"","stream_id":"Earshot"},
     {"clients":[{"config":{"name":"Hall","volume":{"muted":false,"percent":70}},"connected":true,"host":{"name":"hall"},"id":"room3"}],
      "id":"g2","muted":true,"name":"","stream_id":"Off"}],
     "server":{"host":{"name":"vm"},"snapserver":{"version":"0.26.0"}},
     "streams":[{"id":"Earshot","properties":{},"status":"idle","uri":{"fragment":"","host":"","path":"/tmp/sc/earshot.fifo",
       "query":{"chunk_ms":"20","codec":"flac","mode":"create","name":"Earshot","sampleformat":"48000:16:2"},
       "raw":"pipe:////tmp/sc/earshot.fifo?chunk_ms=20","scheme":"pipe"}},
      {"id":"Off","status":"idle","uri":{"host":"","path":"/tmp/sc/off.fifo","query":{},"raw":"pipe:////tmp/sc/off.fifo","scheme":"pipe"}}]}
    """#

    static func status() throws -> SnapcastStatus {
        try #require(SnapcastStatus(JSONDecoder().decode(JSONValue.self, from: Data(answer.utf8))))
    }

    @Test("read from Snapcast's own answer: clients by id and name, volumes, the pipe's path (never the raw URI)")
    func reading() throws {
        let status = try Self.status()
        #expect(status.groups.map(\.id) == ["g1", "g2"] && status.groups[0].streamID == "Earshot")
        #expect(status.groups[0].clients == [
            .init(id: "room1", name: "vm", connected: true, volume: 100, muted: false),
            .init(id: "room2", name: "Kitchen", connected: false, volume: 40, muted: true),
        ])
        #expect(status.streams.first?.path == "/tmp/sc/earshot.fifo" && status.streams.first?.scheme == "pipe")
        #expect(SnapcastStatus(.object([:])) == nil)
    }

    @Test("rooms: every client, by name, joined when its group plays the stream, muted by itself or its group")
    func rooms() throws {
        let rooms = Room.rooms(in: try Self.status(), stream: "Earshot")
        #expect(rooms.map(\.name) == ["Hall", "Kitchen", "vm"])
        #expect(rooms.map(\.joined) == [false, true, true])
        #expect(rooms.map(\.muted) == [true, true, false])
        #expect(rooms.map(\.online) == [true, false, true])
    }

    @Test("joining: a room alone switches its group; sharing one, it moves to the group that plays, or out first")
    func joining() throws {
        let status = try Self.status()
        // room3 alone in g2, and g1 plays Earshot: it moves into g1, and its volume is sent again.
        #expect(try RoomPlan.join("room3", to: "Earshot", in: status) == [
            .setClients(group: "g1", clients: ["room1", "room2", "room3"]), .setVolume(client: "room3", percent: 70, muted: false),
        ])
        #expect(try RoomPlan.join("room1", to: "Earshot", in: status) == [], "already playing it")
        // Leaving: room2 shares g1, and g2 plays Off: it moves there.
        #expect(try RoomPlan.leave("room2", from: "Earshot", in: status) == [
            .setClients(group: "g2", clients: ["room3", "room2"]), .setVolume(client: "room2", percent: 40, muted: true),
        ])
        #expect(throws: RoomPlan.Refusal.noSuchRoom("nope")) { try RoomPlan.join("nope", to: "Earshot", in: status) }

        // Nobody plays the stream yet: alone, the group switches; shared, out on its own first.
        var quiet = status
        quiet.groups[0].streamID = "Off"
        #expect(try RoomPlan.join("room3", to: "Earshot", in: quiet) == [.setStream(group: "g2", stream: "Earshot")])
        #expect(try RoomPlan.join("room1", to: "Earshot", in: quiet) == [
            .setClients(group: "g1", clients: ["room2"]), .setStreamOfGroupOf(client: "room1", stream: "Earshot"),
            .setVolume(client: "room1", percent: 100, muted: false),
        ])
        var single = status
        single.streams.removeLast()
        #expect(throws: RoomPlan.Refusal.noOtherStream) { try RoomPlan.leave("room1", from: "Earshot", in: single) }
    }

    @Test("what the rooms hear: a second behind mpv while playing, never before where it went on; paused, all of it")
    func heard() {
        var clock = HeardClock(lead: 1)
        clock.wentOn(from: 30)
        #expect(clock.heard(mpvPosition: 30.4, playing: true) == 30, "silent until the first audio arrives")
        #expect(clock.heard(mpvPosition: 31.5, playing: true) == 30.5)
        #expect(clock.heard(mpvPosition: 31.5, playing: false) == 31.5)
        #expect(HeardClock(lead: 0).heard(mpvPosition: 12, playing: true) == 12, "this computer: as mpv says")
        // Never ahead of mpv, never back past where it went on, and never more than the lead behind.
        for step in 0..<200 {
            let position = 30 + Double(step) * 0.05
            let heard = clock.heard(mpvPosition: position, playing: true)
            #expect(heard <= position && heard >= 30 && position - heard <= 1 + 1e-9)
        }
    }

    @Test("what the rooms hear across speed changes: the buffer of the old speed plays out, then the new one", arguments: [
        (1.0, 2.0), (2.0, 1.0), (1.5, 0.75), (1.0, 3.0), (0.5, 2.5),
    ])
    func heardAcrossSpeeds(first: Double, second: Double) {
        // The rooms are a delay line: at wall time t they hear what mpv wrote at t − lead. mpv
        // plays at `first` from 30 s, and writes at `second` from the change on.
        let lead = 1.0, change = 3.0
        func mpv(_ t: Double) -> Double { t < change ? 30 + t * first : 30 + change * first + (t - change) * second }
        var clock = HeardClock(lead: lead)
        clock.speedChanged(at: 30, to: first)
        clock.wentOn(from: 30)
        for step in 0...800 {
            let t = Double(step) * 0.01
            if step == 300 { clock.speedChanged(at: mpv(change), to: second) }
            let truth = t < lead ? 30 : mpv(t - lead)
            #expect(abs(clock.heard(mpvPosition: mpv(t), playing: true) - truth) < 1e-9, "at \(t) s")
        }
    }

    @Test("the snapserver Earshot starts: a pipe for Earshot and a silent one, control on loopback, audio on the LAN only with --lan")
    func config() {
        let local = SnapcastServerConfig(folder: "/data/snapcast", streamPort: 1704, controlPort: 1705, lan: false)
        #expect(local.text.contains("source = pipe:///data/snapcast/earshot.fifo?name=Earshot&sampleformat=48000:16:2&mode=create"))
        #expect(local.text.contains("source = pipe:///data/snapcast/off.fifo?name=Off"))
        #expect(local.text.contains("[http]\nenabled = false"))
        #expect(local.text.contains("[tcp]\nenabled = true\nbind_to_address = 127.0.0.1\nport = 1705"))
        #expect(local.text.contains("[stream]\nbind_to_address = 127.0.0.1\nport = 1704"))
        #expect(SnapcastServerConfig(folder: "/d", lan: true).text.contains("[stream]\nbind_to_address = 0.0.0.0"))
    }
}
