@testable import Feeds
import Testing
import TestSupport

/// `itunes:keywords` read on bytes: what the written definition gives — the text's ASCII whitespace
/// squashed, split at commas, each keyword trimmed, empty ones dropped.
@Suite("Keywords, on bytes")
struct KeywordsTests {
    static func reference(_ text: String) -> [String] {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" }
        var keywords: [String] = []
        var current = String.UnicodeScalarView()
        var pendingSpace = false
        func end() {
            if !current.isEmpty { keywords.append(String(current)) }
            current = String.UnicodeScalarView()
            pendingSpace = false
        }
        for scalar in text.unicodeScalars {
            if scalar == "," {
                end()
            } else if isSpace(scalar) {
                pendingSpace = !current.isEmpty
            } else {
                if pendingSpace { current.append(" ") }
                pendingSpace = false
                current.append(scalar)
            }
        }
        end()
        return keywords
    }

    static let pieces = [",", ", ", " ,", ",,", " ", "  ", "\t", "\n", "\u{A0}", "\u{301}", "é", "日本", "a", "music", "2.0", "\u{1F600}"]

    @Test("agrees with the definition on 5,000 random lists")
    func agreesWithTheDefinition() {
        var random = SplitMix64(seed: 2_112)
        for _ in 0..<5_000 {
            let text = (0..<Int(random.next() % 12)).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            var copy = text
            let keywords = copy.withUTF8 { FeedValues.keywords(bytes: $0) }
            #expect(keywords == Self.reference(text), "\(Array(text.unicodeScalars))")
        }
        #expect(Self.reference(" one, two ,,three  four ") == ["one", "two", "three four"])
    }
}
