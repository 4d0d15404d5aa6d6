/// What a listener typed in the search field, as an SQLite FTS5 query that cannot be a syntax
/// error: every word is quoted (so `AND`, `-`, `:`, `(`, `^` are words, not operators), words
/// join with an implicit AND, "quoted words" stay a phrase, and a `*` at a word's end asks for
/// every word beginning so. An unclosed quote closes at the end. Pure.
public struct SearchQuery: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        case word(String, prefix: Bool)
        case phrase([String])
    }

    /// At most this many terms are kept (a search field, not a document).
    public static let maximumTerms = 16
    /// A longer word is cut (no word of any language is this long; a pasted blob should not cost).
    public static let maximumWordLength = 64

    public var terms: [Term]

    public init(_ text: String) {
        var terms: [Term] = []
        var inPhrase = false
        for (index, part) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            inPhrase = index % 2 == 1
            let words = part.split(whereSeparator: \.isWhitespace).map(String.init)
            if inPhrase {
                let kept = words.compactMap(Self.cleanWord)
                if kept.count == 1 { terms.append(.word(kept[0], prefix: false)) } else if !kept.isEmpty { terms.append(.phrase(kept)) }
            } else {
                for word in words {
                    let prefix = word.hasSuffix("*")
                    let bare = String(word.drop { $0 == "*" }.reversed().drop { $0 == "*" }.reversed())
                    if let kept = Self.cleanWord(bare) { terms.append(.word(kept, prefix: prefix)) }
                }
            }
        }
        self.terms = Array(terms.prefix(Self.maximumTerms))
    }

    /// Nothing to search for (only punctuation or spaces were typed).
    public var isEmpty: Bool { terms.isEmpty }

    /// The FTS5 query: `"word" "two words" "pre"*`; nil when empty.
    public var fts: String? {
        guard !terms.isEmpty else { return nil }
        return terms.map { term in
            switch term {
            case .word(let word, let prefix): Self.quoted(word) + (prefix ? "*" : "")
            case .phrase(let words): Self.quoted(words.joined(separator: " "))
            }
        }.joined(separator: " ")
    }

    /// A word with a letter or digit in it, cut to length; nil for pure punctuation (which the
    /// tokenizer would make an empty phrase of).
    private static func cleanWord(_ word: String) -> String? {
        guard word.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
        return String(word.prefix(maximumWordLength))
    }

    /// An FTS5 string: inside double quotes, a double quote is written twice.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text { out += character == "\"" ? "\"\"" : String(character) }
        return out + "\""
    }
}
