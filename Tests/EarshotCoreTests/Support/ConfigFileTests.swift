import EarshotCore
import Testing

@Suite("earshot.conf: key = value lines become the flags they name")
struct ConfigFileTests {
    @Test("values, switches, comments, quotes and repeats")
    func reads() throws {
        let text = """
        # Earshot on the living-room box
        port = 8080
        lan = yes
        no-demo = false
        allow-host = box.local
        allow-host = "earshot.home"
        audio-output=pulse\r
          data = /srv/earshot
        """
        #expect(try ConfigFile.flags(text) == ["--port", "8080", "--lan", "--allow-host", "box.local",
                                               "--allow-host", "earshot.home", "--audio-output", "pulse", "--data", "/srv/earshot"])
        #expect(try ConfigFile.flags("") == [])
    }

    @Test("a line that is not a setting is an error naming its line")
    func errors() {
        #expect(throws: ConfigFile.Failure(line: 2, reason: "expected key = value, not \"port 8080\"")) {
            try ConfigFile.flags("# x\nport 8080")
        }
        #expect(throws: ConfigFile.Failure.self) { try ConfigFile.flags("lan = maybe") }
        #expect(throws: ConfigFile.Failure.self) { try ConfigFile.flags("port =") }
        do {
            _ = try ConfigFile.flags("\n\ncolour = red")
            Issue.record("an unknown key must fail")
        } catch {
            #expect(error.line == 3)
            #expect(error.reason.contains("colour") && error.reason.contains("audio-output"), "\(error.reason)")
        }
    }
}
