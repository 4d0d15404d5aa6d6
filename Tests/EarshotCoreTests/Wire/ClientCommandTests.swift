import EarshotCore
import Foundation
import Testing

@Suite("Decoding client commands")
struct ClientCommandTests {
    @Test("every command of the protocol", arguments: [
        (#"{"id":1,"cmd":"play","episode":42}"#, ClientCommand.play(episode: 42)),
        (#"{"cmd":"pause"}"#, .pause), (#"{"cmd":"resume"}"#, .resume), (#"{"cmd":"toggle"}"#, .toggle),
        (#"{"cmd":"stop"}"#, .stop), (#"{"cmd":"seek","to":12.5}"#, .seek(to: 12.5)),
        (#"{"cmd":"skip","by":-15}"#, .skip(by: -15)), (#"{"cmd":"rate","value":0.5}"#, .rate(0.5)),
        (#"{"cmd":"rate","value":3}"#, .rate(3)), (#"{"cmd":"volume","value":0}"#, .volume(0)),
        (#"{"cmd":"volume","value":130}"#, .volume(130)),
        (#"{"cmd":"mute","on":true}"#, .mute(true)), (#"{"id":3,"cmd":"ping"}"#, .ping),
        (#"{"cmd":"queue.add","episode":5}"#, .queueAdd(episode: 5, at: .end)),
        (#"{"cmd":"queue.add","episode":5,"at":"next"}"#, .queueAdd(episode: 5, at: .next)),
        (#"{"cmd":"queue.remove","episode":5}"#, .queueRemove(episode: 5)),
        (#"{"cmd":"queue.move","from":2,"to":0}"#, .queueMove(from: 2, to: 0)), (#"{"cmd":"queue.clear"}"#, .queueClear),
        (#"{"cmd":"next"}"#, .next), (#"{"cmd":"previous"}"#, .previous), (#"{"cmd":"shuffle","on":true}"#, .shuffle(true)),
        (#"{"cmd":"repeat","mode":"all"}"#, .repeatMode(.all)),
        (#"{"cmd":"mark","episode":9,"played":true}"#, .mark(episode: 9, played: true)),
    ])
    func decodes(frame: String, expected: ClientCommand) throws {
        let (_, result) = ClientCommand.decode(frame)
        #expect(try result.get() == expected)
    }

    @Test("ids come back exactly as sent")
    func ids() {
        #expect(ClientCommand.decode(#"{"id":7,"cmd":"stop"}"#).id == .number(7))
        #expect(ClientCommand.decode(#"{"id":"abc","cmd":"stop"}"#).id == .string("abc"))
        #expect(ClientCommand.decode(#"{"id":[1,true],"cmd":"nope"}"#).id == .array([.number(1), .bool(true)]))
        #expect(ClientCommand.decode(#"{"cmd":"stop"}"#).id == .null)
        #expect(ServerMessage.ack(id: .number(7)).encoded() == #"{"id":7,"type":"ack"}"#)
    }

    @Test("bad frames are errors with a reason", arguments: [
        ("", "malformed JSON"), ("{", "malformed JSON"), ("42", "a command must be a JSON object"),
        (#"{"id":1}"#, "missing \"cmd\""), (#"{"cmd":5}"#, "missing \"cmd\""),
        (#"{"cmd":"fly"}"#, "unknown command \"fly\""),
        (#"{"cmd":"play"}"#, "\"play\" needs a number \"episode\""),
        (#"{"cmd":"play","episode":"7"}"#, "\"play\" needs a number \"episode\""),
        (#"{"cmd":"play","episode":1.5}"#, "\"play\" needs an episode id"),
        (#"{"cmd":"play","episode":true}"#, "\"play\" needs a number \"episode\""),
        (#"{"cmd":"seek","to":-1}"#, "\"seek\" needs \"to\" ≥ 0"),
        (#"{"cmd":"rate","value":0.25}"#, "rate must be between 0.5 and 3"),
        (#"{"cmd":"volume","value":131}"#, "volume must be between 0 and 130"),
        (#"{"cmd":"volume","value":-1}"#, "volume must be between 0 and 130"),
        (#"{"cmd":"mute","on":1}"#, "\"mute\" needs a boolean \"on\""),
        (#"{"cmd":"queue.add","episode":5,"at":"top"}"#, "\"at\" must be \"end\" or \"next\""),
        (#"{"cmd":"queue.move","from":-1,"to":0}"#, "\"queue.move\" needs a position \"from\" ≥ 0"),
        (#"{"cmd":"repeat","mode":"twice"}"#, "\"repeat\" needs \"mode\": \"off\", \"one\" or \"all\""),
        (#"{"cmd":"shuffle"}"#, "\"shuffle\" needs a boolean \"on\""),
        (#"{"cmd":"mark","episode":9}"#, "\"mark\" needs a boolean \"played\""),
    ])
    func refuses(frame: String, message: String) {
        let (_, result) = ClientCommand.decode(frame)
        #expect(throws: CommandError(message)) { try result.get() }
    }
}

@Suite("Server messages on the wire")
struct ServerMessageTests {
    @Test("state carries every key of the protocol, with null for no episode")
    func stateKeys() throws {
        var state = PlaybackState()
        state.chapters = [Chapter(title: "Intro", start: 0)]
        let text = ServerMessage.state(seq: 3, state).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["type", "seq", "episode", "paused", "position", "duration", "rate", "volume", "muted",
                                   "buffering", "queue", "shuffle", "repeat", "sleep", "settings", "chapters", "chapter", "error",
                                   "outputs", "output", "notice", "resumeOffer", "failures", "rooms", "roomsNotice", "skipped",
                                   "levelGain", "alarm"])
        #expect(json["levelGain"] is NSNull && json["alarm"] is NSNull)
        #expect((json["rooms"] as? [Any])?.isEmpty == true && json["roomsNotice"] is NSNull)
        #expect(json["episode"] is NSNull)
        #expect(json["notice"] is NSNull && json["resumeOffer"] is NSNull && json["output"] as? String == "auto")
        #expect((json["failures"] as? [String: Any])?.isEmpty == true && (json["outputs"] as? [Any])?.isEmpty == true)
        #expect(json["seq"] as? Int == 3)
        #expect((json["chapters"] as? [[String: Any]])?.first?["title"] as? String == "Intro")
    }

    @Test("time, error and library messages")
    func others() {
        #expect(ServerMessage.time(seq: 9, position: 1.5, duration: 60, rate: 1, paused: false).encoded()
                == #"{"duration":60,"paused":false,"position":1.5,"rate":1,"seq":9,"type":"time"}"#)
        #expect(ServerMessage.error(id: .null, message: "no").encoded() == #"{"id":null,"message":"no","type":"error"}"#)
        #expect(ServerMessage.library(version: 4).encoded() == #"{"type":"library","version":4}"#)
    }
}
