import EarshotCore
import Foundation

/// The single pass behind `ShowNotes.sanitize`: a lenient HTML tokenizer (comments, bogus comments,
/// raw-text elements, quoted attributes, character references, as browsers read them) feeding a small
/// tree builder that keeps only the allowlisted elements (`NoteElement`) and attributes.
///
/// The output is a tree, never markup, so nothing can be re-parsed into something else; the work is
/// linear in the input (every search either consumes what it finds or ends the input), and the tree is
/// at most `maxDepth` deep, so encoding it can never exhaust the stack.
struct HTMLSanitizer {
    /// Deeper elements are unwrapped (their text kept).
    static let maxDepth = 24

    struct Open {
        let element: NoteElement
        let attributes: [String: String]
        /// Where its children start in `nodes`.
        let firstChild: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let baseURL: URL?
    var index = 0
    var stack: [Open] = [Open(element: .root, attributes: [:], firstChild: 0)]
    /// The children of every open element, innermost last: each element's become one array of exactly
    /// their size when it closes (no growing arrays, no spare capacity kept).
    var nodes: [RichText] = []
    /// Text not yet made a node: whitespace already collapsed, references decoded.
    var text: [UInt8] = []
    /// Whitespace was seen: a space goes out before the next text, unless a line starts there.
    var pendingSpace = false
    /// A block began or ended, or a line break was made: whitespace here is not shown.
    var atLineStart = true
    /// An unwrapped block (a `div`) ended a line: a `br` goes out before the next content.
    var pendingBreak = false
    /// `<![CDATA[` openers seen, whose `]]>` is dropped.
    var openCDATA = 0

    /// The buffers one pass leaves to the next: a feed sanitizes thousands of notes in a row.
    struct Scratch {
        var stack: [Open] = []
        var nodes: [RichText] = []
        var text: [UInt8] = []
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, baseURL: URL?) {
        self.bytes = bytes
        self.baseURL = baseURL
    }

    /// Runs over the bytes with `scratch`'s buffers, which keep their capacity for the next run.
    mutating func run(reusing scratch: inout Scratch) -> [RichText] {
        swap(&stack, &scratch.stack)
        swap(&nodes, &scratch.nodes)
        swap(&text, &scratch.text)
        stack.removeAll(keepingCapacity: true)
        stack.append(Open(element: .root, attributes: [:], firstChild: 0))
        nodes.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        let result = run()
        swap(&stack, &scratch.stack)
        swap(&nodes, &scratch.nodes)
        swap(&text, &scratch.text)
        return result
    }

    private mutating func run() -> [RichText] {
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                markup()
            case UInt8(ascii: "&"):
                textReference()
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                pendingSpace = true
                index += 1
            case 0x00...0x1F, 0x7F:
                index += 1  // control characters say nothing
            case UInt8(ascii: "]") where openCDATA > 0 && matches("]]>", at: index):
                openCDATA -= 1
                index += 3
            default:
                // A run of ordinary bytes, single spaces between words included, is copied in one go.
                let start = index
                let end = Self.endOfRun(bytes, from: start + 1)
                index = end
                beforeContent()
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        flushText()
        while stack.count > 1 { popTop() }
        dropTrailingBreaks(from: 0)
        return Array(nodes)  // exactly sized: the buffer's spare capacity stays behind
    }

    /// Where a run of ordinary bytes starting before `start` ends (a local loop: the hot one).
    static func endOfRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        var cursor = start
        while cursor < count {
            let byte = bytes[cursor]
            if isOrdinary(byte) {
                cursor += 1
            } else if byte == 0x20, cursor + 1 < count, isOrdinary(bytes[cursor + 1]) {
                cursor += 2
            } else {
                break
            }
        }
        return cursor
    }

    @inline(__always)
    static func isOrdinary(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "]")
            && byte != 0x7F
    }

    // MARK: Text

    /// A character reference in text, or a lone `&`.
    private mutating func textReference() {
        guard let (value, end) = HTMLEntities.decode(bytes, at: index, inAttribute: false) else {
            beforeContent()
            text.append(UInt8(ascii: "&"))
            index += 1
            return
        }
        index = end
        switch value {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: pendingSpace = true
        case 0x00...0x1F, 0x7F: break
        default:
            beforeContent()
            FeedEncoding.appendUTF8(value, to: &text)
        }
    }

    /// Settles pending line breaks and spaces before something is added at the current place.
    mutating func resolvePending() {
        if pendingBreak {
            pendingBreak = false
            append(.element(NoteElement.br.name, attributes: [:], children: []))
            atLineStart = true
            pendingSpace = false
        }
        if pendingSpace {
            pendingSpace = false
            if !atLineStart { text.append(0x20) }
        }
    }

    /// Before visible content (text, an image).
    mutating func beforeContent() {
        if pendingBreak || pendingSpace { resolvePending() }
        atLineStart = false
    }

    /// Makes the collected text a node of the current element (joined to a text node just before it).
    mutating func flushText() {
        guard !text.isEmpty else { return }
        let string = String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
        if nodes.count > stack[stack.count - 1].firstChild, case .text(let previous) = nodes[nodes.count - 1] {
            nodes[nodes.count - 1] = .text(previous + string)
        } else {
            nodes.append(.text(string))
        }
    }

    /// Adds a finished node to the current element.
    mutating func append(_ node: RichText) {
        flushText()
        nodes.append(node)
    }

    /// Whether the current element already shows something.
    var currentHasContent: Bool { !text.isEmpty || nodes.count > stack[stack.count - 1].firstChild }

    // MARK: Tree

    mutating func push(_ element: NoteElement, attributes: [String: String] = [:]) {
        flushText()
        stack.append(Open(element: element, attributes: attributes, firstChild: nodes.count))
    }

    /// Closes the current element; an element left empty is dropped.
    mutating func popTop() {
        flushText()
        let open = stack.removeLast()
        dropTrailingBreaks(from: open.firstChild)
        guard nodes.count > open.firstChild else { return }
        let children = Array(nodes[open.firstChild...])
        nodes.removeLast(nodes.count - open.firstChild)
        nodes.append(.element(open.element.name, attributes: open.attributes, children: children))
    }

    /// Line breaks that end an element break nothing (feeds pad their notes with them).
    mutating func dropTrailingBreaks(from firstChild: Int) {
        while nodes.count > firstChild, case .element(let tag, _, let children) = nodes[nodes.count - 1],
              tag == NoteElement.br.name, children.isEmpty {
            nodes.removeLast()
        }
    }

    /// The depth of the innermost open `element`, or nil. `stopAtLists` ends the search at a list (the
    /// scope of a list item).
    func openDepth(of element: NoteElement, stopAtLists: Bool = false) -> Int? {
        var depth = stack.count - 1
        while depth > 0 {
            let open = stack[depth].element
            if open == element { return depth }
            if stopAtLists, open == .ul || open == .ol { return nil }
            depth -= 1
        }
        return nil
    }

    mutating func close(downTo depth: Int) {
        while stack.count > depth { popTop() }
    }

    // MARK: Byte searches

    func matches(_ literal: StaticString, at position: Int) -> Bool {
        literal.withUTF8Buffer { pattern in
            guard position + pattern.count <= bytes.count else { return false }
            for offset in 0..<pattern.count where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
    }

    /// The index of the next `byte` at or after `start`, or nil.
    func next(_ byte: UInt8, from start: Int) -> Int? {
        var cursor = start
        while cursor < bytes.count {
            if bytes[cursor] == byte { return cursor }
            cursor += 1
        }
        return nil
    }
}
