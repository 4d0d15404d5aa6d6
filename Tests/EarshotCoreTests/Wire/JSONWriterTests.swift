import EarshotCore
import Foundation
import Testing
import TestSupport

/// `JSONValue.jsonBytes`: the one-pass writer behind `earshot parse --json`.
@Suite struct JSONWriterTests {
    static func randomString(_ generator: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "日本", "🎧", "\r", "\u{7F}", "<", "&"]
        return (0..<Int(generator.next() % 8)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
    }

    static func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch generator.next() % (depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2:
            let choices: [Double] = [0, -1, 42, 1e15, 0.5, -3.25, 1e-7, 123456.789, Double(generator.next() % 100_000)]
            return .number(choices[Int(generator.next() % UInt64(choices.count))])
        case 3: return .string(randomString(&generator))
        case 4: return .array((0..<Int(generator.next() % 4)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(generator.next() % 4) { members[randomString(&generator)] = randomValue(&generator, depth: depth + 1) }
            return .object(members)
        }
    }

    @Test("property: what it writes reads back as the same value, compact and pretty")
    func roundTrips() throws {
        var generator = SplitMix64(seed: 2026)
        for _ in 0..<1500 {
            let value = Self.randomValue(&generator)
            for pretty in [false, true] {
                let bytes = value.jsonBytes(pretty: pretty, sortedKeys: true)
                let back = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
                #expect(back == value, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test("layout: JSONEncoder's pretty style (two spaces, \"key\" : value), keys in byte order, few escapes")
    func layout() throws {
        let value = JSONValue.object(["b": .array([.number(1), .string("a/b\"\n\u{01}é")]), "a": .object([:]), "B": .null])
        #expect(String(decoding: value.jsonBytes(sortedKeys: true), as: UTF8.self) == #"{"B":null,"a":{},"b":[1,"a/b\"\n\u0001é"]}"#)
        #expect(String(decoding: value.jsonBytes(pretty: true, sortedKeys: true), as: UTF8.self) == """
            {
              "B" : null,
              "a" : {},
              "b" : [
                1,
                "a/b\\"\\n\\u0001é"
              ]
            }
            """)
        #expect(JSONValue.number(.nan).jsonBytes() == Array("null".utf8))
        #expect(JSONValue.number(-0.5).jsonBytes() == Array("-0.5".utf8))
        #expect(JSONValue.number(1e15).jsonBytes() == Array("1000000000000000".utf8))
    }
}
