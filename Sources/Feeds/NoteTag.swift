import EarshotCore

/// The elements show notes may keep, by the name they keep.
enum NoteElement: UInt8 {
    case root
    case p, br, a, strong, em, b, i, ul, ol, li, blockquote, h1, h2, h3, h4, h5, h6, img

    /// The name written out (a literal: the writer copies its bytes, no `String` is unpacked).
    var name: StaticString {
        switch self {
        case .root: return ""
        case .p: return "p"
        case .br: return "br"
        case .a: return "a"
        case .strong: return "strong"
        case .em: return "em"
        case .b: return "b"
        case .i: return "i"
        case .ul: return "ul"
        case .ol: return "ol"
        case .li: return "li"
        case .blockquote: return "blockquote"
        case .h1: return "h1"
        case .h2: return "h2"
        case .h3: return "h3"
        case .h4: return "h4"
        case .h5: return "h5"
        case .h6: return "h6"
        case .img: return "img"
        }
    }

    /// Its start and end tags, packed for `SanitizedHTML.Writer.markup` (made once).
    var startTag: SanitizedHTML.Writer.Markup { Self.startTags[Int(rawValue)] }
    var endTag: SanitizedHTML.Writer.Markup { Self.endTags[Int(rawValue)] }
    private static let all: [NoteElement] = (0...NoteElement.img.rawValue).map { NoteElement(rawValue: $0)! }
    private static let startTags = all.map { SanitizedHTML.Writer.Markup($0.name) }
    private static let endTags = all.map { SanitizedHTML.Writer.Markup($0.name, closing: true) }

    /// Blocks start on their own line: text never runs into them.
    var isBlock: Bool {
        switch self {
        case .p, .ul, .ol, .li, .blockquote, .h1, .h2, .h3, .h4, .h5, .h6: return true
        default: return false
        }
    }

    var isHeading: Bool { rawValue >= NoteElement.h1.rawValue && rawValue <= NoteElement.h6.rawValue }
}

/// What the sanitizer does with a tag, by name (matched on the lowercased name's length and first
/// 8 bytes, plus the rest for the few longer names that matter).
enum NoteTag: Equatable {
    /// Kept (with its allowed attributes only).
    case kept(NoteElement)
    /// Dropped with everything inside. `rawText` elements (script, style, …) end at the first matching
    /// end tag whatever comes between, as browsers read them; the others count nesting.
    case dropped(rawText: Bool)
    /// Unwrapped, but it separated lines (div, table row, …): a line break takes its place.
    case lineBlock
    /// Unwrapped, but it separated words (a table cell).
    case cell
    /// Unwrapped: only its text stays.
    case inline

    init(length: Int, packed: UInt64, tail: UInt64) {
        // A name of up to 8 bytes is its packed bytes, one case of a switch on a number (compiled to a
        // search, where a switch on (length, packed) tested its cases one after another); its length
        // must be the packed bytes' count (a NUL in a name would otherwise hide behind a shorter one).
        guard length <= 8, length == (71 - packed.leadingZeroBitCount) / 8 else {
            self = Self.long(length: length, packed: packed, tail: tail)
            return
        }
        switch packed {
        case 0x70: self = .kept(.p)
        case 0x7262: self = .kept(.br)
        case 0x61: self = .kept(.a)
        case 0x676e6f727473: self = .kept(.strong)
        case 0x6d65: self = .kept(.em)
        case 0x62: self = .kept(.b)
        case 0x69: self = .kept(.i)
        case 0x6c75: self = .kept(.ul)
        case 0x6c6f: self = .kept(.ol)
        case 0x696c: self = .kept(.li)
        case 0x3168: self = .kept(.h1)
        case 0x3268: self = .kept(.h2)
        case 0x3368: self = .kept(.h3)
        case 0x3468: self = .kept(.h4)
        case 0x3568: self = .kept(.h5)
        case 0x3668: self = .kept(.h6)
        case 0x676d69: self = .kept(.img)
        // script style textarea title xmp iframe noembed noframes noscript
        case 0x747069726373, 0x656c797473, 0x6165726174786574, 0x656c746974, 0x706d78,
             0x656d61726669, 0x6465626d656f6e, 0x73656d6172666f6e, 0x7470697263736f6e:
            self = .dropped(rawText: true)
        // svg math template object head select applet frameset
        case 0x677673, 0x6874616d, 0x6574616c706d6574, 0x7463656a626f, 0x64616568,
             0x7463656c6573, 0x74656c707061, 0x746573656d617266:
            self = .dropped(rawText: false)
        // div section article header footer dd dt dl hr figure address nav aside main pre table tr
        // center details summary form fieldset caption
        case 0x766964, 0x6e6f6974636573, 0x656c6369747261, 0x726564616568,
             0x7265746f6f66, 0x6464, 0x7464, 0x6c64, 0x7268, 0x657275676966,
             0x73736572646461, 0x76616e, 0x6564697361, 0x6e69616d, 0x657270,
             0x656c626174, 0x7274, 0x7265746e6563, 0x736c6961746564, 0x7972616d6d7573,
             0x6d726f66, 0x746573646c656966, 0x6e6f6974706163:
            self = .lineBlock
        case 0x6474, 0x6874:  // td th
            self = .cell
        default:
            self = .inline
        }
    }

    /// The names longer than 8 bytes that matter (the rest, and any name with a NUL, are unwrapped).
    private static func long(length: Int, packed: UInt64, tail: UInt64) -> NoteTag {
        switch (length, packed, tail) {
        case (10, 0x6f75716b636f6c62, 0x6574): .kept(.blockquote)
        case (9, 0x7865746e69616c70, 0x74): .dropped(rawText: true)  // plaintext: everything after it
        case (10, 0x6974706163676966, 0x6e6f): .lineBlock  // figcaption
        default: .inline
        }
    }
}
