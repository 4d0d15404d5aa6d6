import EarshotCore
import Testing
@testable import Web

@Suite("Host and Origin rules")
struct AccessPolicyTests {
    let policy = AccessPolicy(port: 8080)

    @Test("hosts that name this server pass; others do not")
    func hosts() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "127.0.0.1", "localhost"] {
            #expect(policy.allowsHost(host), "\(host)")
        }
        for host in [nil, "", "evil.example", "evil.example:8080", "127.0.0.1:8081", "127.0.0.1:", "localhost:x",
                     "127.0.0.1.evil.example:8080", "[::1]x", "192.168.1.5:8080"] as [String?] {
            #expect(!policy.allowsHost(host), "\(host ?? "nil")")
        }
    }

    @Test("only this server's own page is a friendly Origin")
    func origins() {
        #expect(policy.allowsOrigin(nil))
        for origin in ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
            #expect(policy.allowsOrigin(origin), "\(origin)")
        }
        for origin in ["null", "http://evil.example", "http://evil.example:8080", "https://127.0.0.1:8080",
                       "http://127.0.0.1", "http://127.0.0.1:8081", "http://127.0.0.1:8080/path", "file://"] {
            #expect(!policy.allowsOrigin(origin), "\(origin)")
        }
        #expect(AccessPolicy(port: 80).allowsOrigin("http://localhost"))
    }
}

@Suite("A slow client's outbox")
struct SocketOutboxTests {
    @Test("a new state replaces unsent state and time; replies are kept in order")
    func coalescing() {
        var box = SocketOutbox()
        box.push(.init(kind: .state, text: "s1"))
        box.push(.init(kind: .other, text: "ack1"))
        box.push(.init(kind: .time, text: "t1"))
        box.push(.init(kind: .time, text: "t2"))
        #expect(box.messages.map(\.text) == ["s1", "ack1", "t2"])
        box.push(.init(kind: .state, text: "s2"))
        #expect(box.messages.map(\.text) == ["ack1", "s2"])
        #expect(box.pop()?.text == "ack1")
        #expect(box.pop()?.text == "s2")
        #expect(box.pop() == nil)
    }

    @Test("a client that never reads cannot grow the outbox without bound")
    func bounded() {
        var box = SocketOutbox()
        for i in 0..<1000 { box.push(.init(kind: .other, text: "\(i)")) }
        #expect(box.messages.count == SocketOutbox.maxOther)
        #expect(box.messages.first?.text == "\(1000 - SocketOutbox.maxOther)")
    }
}

@Suite("A client that floods commands")
struct CommandAdmissionTests {
    @Test("past the limit a client's commands are refused until earlier ones are handled")
    func admission() {
        let server = LWSServer()
        for _ in 0..<LWSServer.maxCommandsInFlight { #expect(server.admitCommand(from: 7)) }
        #expect(!server.admitCommand(from: 7))
        #expect(server.admitCommand(from: 8), "other clients are not affected")
        server.commandHandled(7)
        #expect(server.admitCommand(from: 7))
        #expect(!server.admitCommand(from: 7))
    }
}
