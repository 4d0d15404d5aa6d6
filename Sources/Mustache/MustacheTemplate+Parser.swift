extension MustacheTemplate {
    /// Turns template source into a node tree in one pass over its UTF-8 bytes.
    ///
    /// Standalone lines are decided here, not while rendering: a section, inverted, closing,
    /// comment, partial or set-delimiter tag with only spaces or tabs around it on its line
    /// vanishes together with that whitespace and the line's newline, as the spec requires.
    struct Parser {
        private let bytes: [UInt8]
        private var openDelimiter = Array("{{".utf8)
        private var closeDelimiter = Array("}}".utf8)
        /// The children of the innermost open section (or the top level).
        private var nodes: [Node] = []
        private var openSections: [OpenSection] = []

        /// A section whose closing tag has not been seen yet.
        private struct OpenSection {
            let name: String
            let path: [String]
            let inverted: Bool
            let tagStart: Int
            /// The node list the finished section is appended to.
            let enclosing: [Node]
        }

        /// What a tag does, from the character after its opening delimiter.
        private enum Kind {
            case variable(escaped: Bool)
            case sectionStart(inverted: Bool)
            case sectionEnd
            case comment
            case partial
            case setDelimiters

            /// Interpolations print something, so they never make their line disappear.
            var canStandAlone: Bool {
                if case .variable = self { return false }
                return true
            }
        }

        private struct Tag {
            let kind: Kind
            /// The tag's content without its sigil and surrounding whitespace.
            let content: String
            let start: Int
            /// The index just past the closing delimiter.
            let end: Int
        }

        init(_ source: String) {
            bytes = Array(source.utf8)
        }

        mutating func parse() throws -> [Node] {
            var textStart = 0
            var position = 0
            while let tagStart = find(openDelimiter, from: position) {
                let tag = try readTag(at: tagStart)
                if tag.kind.canStandAlone, let line = standaloneLine(tag, textStart: textStart) {
                    appendText(from: textStart, to: line.start, tagFollows: false)
                    let indent = String(decoding: bytes[line.start..<tag.start], as: UTF8.self)
                    try handle(tag, indent: indent)
                    position = line.next
                } else {
                    appendText(from: textStart, to: tag.start, tagFollows: true)
                    try handle(tag, indent: nil)
                    position = tag.end
                }
                textStart = position
            }
            appendText(from: textStart, to: bytes.count, tagFollows: false)
            if let unclosed = openSections.last {
                throw MustacheError(.unclosedSection(unclosed.name), line: line(of: unclosed.tagStart))
            }
            return nodes
        }

        // MARK: Tags

        private func readTag(at start: Int) throws -> Tag {
            var index = start + openDelimiter.count
            skipWhitespace(&index)
            let kind: Kind
            var closing = closeDelimiter
            switch index < bytes.count ? bytes[index] : 0 {
            case UInt8(ascii: "#"): kind = .sectionStart(inverted: false)
            case UInt8(ascii: "^"): kind = .sectionStart(inverted: true)
            case UInt8(ascii: "/"): kind = .sectionEnd
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "="): kind = .setDelimiters
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: "{"):
                kind = .variable(escaped: false)
                closing = [UInt8(ascii: "}")] + closeDelimiter
            default:
                kind = .variable(escaped: true)
                index -= 1  // no sigil to skip
            }
            index += 1
            guard let closeAt = find(closing, from: index) else {
                throw MustacheError(.unclosedTag, line: line(of: start))
            }
            let content = String(decoding: bytes[index..<closeAt], as: UTF8.self)
            return Tag(kind: kind, content: trimmed(content), start: start, end: closeAt + closing.count)
        }

        private mutating func handle(_ tag: Tag, indent: String?) throws {
            switch tag.kind {
            case .variable(let escaped):
                nodes.append(.variable(path: try path(tag.content, tag), escaped: escaped))
            case .sectionStart(let inverted):
                let path = try path(tag.content, tag)
                openSections.append(OpenSection(name: tag.content, path: path, inverted: inverted,
                                                tagStart: tag.start, enclosing: nodes))
                nodes = []
            case .sectionEnd:
                guard let open = openSections.last, open.name == tag.content else {
                    throw MustacheError(.mismatchedSectionEnd(expected: openSections.last?.name, found: tag.content),
                                        line: line(of: tag.start))
                }
                openSections.removeLast()
                let section = Node.section(path: open.path, inverted: open.inverted, children: nodes)
                nodes = open.enclosing
                nodes.append(section)
            case .comment:
                break
            case .partial:
                if tag.content.hasPrefix("*") {
                    let name = trimmed(String(tag.content.dropFirst()))
                    nodes.append(.partial(.dynamic(path: try path(name, tag)), indent: indent))
                } else {
                    try validateName(tag.content, tag)
                    nodes.append(.partial(.fixed(tag.content), indent: indent))
                }
            case .setDelimiters:
                try setDelimiters(tag)
            }
        }

        /// `{{=<% %>=}}`: the new delimiters hold until the next change, in nested sections too,
        /// but never inside partials (each partial is parsed on its own, from `{{ }}`).
        private mutating func setDelimiters(_ tag: Tag) throws {
            let bad = MustacheError(.badDelimiters(tag.content), line: line(of: tag.start))
            guard tag.content.hasSuffix("=") else { throw bad }
            let parts = tag.content.dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else { throw bad }
            openDelimiter = Array(parts[0].utf8)
            closeDelimiter = Array(parts[1].utf8)
        }

        /// `a.b.c` → `["a", "b", "c"]`; `.` (the implicit iterator) → `[]`.
        private func path(_ name: String, _ tag: Tag) throws -> [String] {
            try validateName(name, tag)
            if name == "." { return [] }
            return name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }

        private func validateName(_ name: String, _ tag: Tag) throws {
            if name.isEmpty || name.utf8.contains(where: Self.isWhitespace) {
                throw MustacheError(.badTagName(name), line: line(of: tag.start))
            }
        }

        // MARK: Text and standalone lines

        /// If `tag` is alone on its line (only spaces and tabs beside it), the bytes to drop: from
        /// the start of the line to just past its newline (or the end of the source).
        private func standaloneLine(_ tag: Tag, textStart: Int) -> (start: Int, next: Int)? {
            var start = tag.start
            while start > textStart, Self.isBlank(bytes[start - 1]) { start -= 1 }
            guard start == 0 || bytes[start - 1] == UInt8(ascii: "\n") else { return nil }
            var end = tag.end
            while end < bytes.count, Self.isBlank(bytes[end]) { end += 1 }
            if end == bytes.count { return (start, end) }
            if bytes[end] == UInt8(ascii: "\n") { return (start, end + 1) }
            if bytes[end] == UInt8(ascii: "\r"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\n") {
                return (start, end + 2)
            }
            return nil
        }

        /// Appends `bytes[start..<end]` as text, with a `.lineStart` marker at every source line start
        /// it covers, and at `end` too when a printed tag begins a line there.
        private mutating func appendText(from start: Int, to end: Int, tagFollows: Bool) {
            guard start < end || tagFollows else { return }
            if start == 0 || bytes[start - 1] == UInt8(ascii: "\n") { nodes.append(.lineStart) }
            var runStart = start
            var index = start
            while index < end {
                if bytes[index] == UInt8(ascii: "\n"), index + 1 < end || (index + 1 == end && tagFollows) {
                    nodes.append(.text(String(decoding: bytes[runStart...index], as: UTF8.self)))
                    nodes.append(.lineStart)
                    runStart = index + 1
                }
                index += 1
            }
            if runStart < end {
                nodes.append(.text(String(decoding: bytes[runStart..<end], as: UTF8.self)))
            }
        }

        // MARK: Bytes

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, needle.count <= bytes.count else { return nil }
            var index = start
            let last = bytes.count - needle.count
            outer: while index <= last {
                if bytes[index] == first {
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        index += 1
                        continue outer
                    }
                    return index
                }
                index += 1
            }
            return nil
        }

        private func skipWhitespace(_ index: inout Int) {
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        }

        private func trimmed(_ text: String) -> String {
            let utf8 = Array(text.utf8)
            guard let first = utf8.firstIndex(where: { !Self.isWhitespace($0) }),
                  let last = utf8.lastIndex(where: { !Self.isWhitespace($0) }) else { return "" }
            if first == 0 && last == utf8.count - 1 { return text }
            return String(decoding: utf8[first...last], as: UTF8.self)
        }

        /// 1-based line number of a byte offset, for error messages only.
        private func line(of offset: Int) -> Int {
            1 + bytes[..<min(offset, bytes.count)].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        }

        private static func isBlank(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            isBlank(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        }
    }
}
