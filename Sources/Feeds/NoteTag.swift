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
        switch (length, packed) {
        case (1, 0x70): self = .kept(.p)
        case (2, 0x7262): self = .kept(.br)
        case (1, 0x61): self = .kept(.a)
        case (6, 0x676e6f727473): self = .kept(.strong)
        case (2, 0x6d65): self = .kept(.em)
        case (1, 0x62): self = .kept(.b)
        case (1, 0x69): self = .kept(.i)
        case (2, 0x6c75): self = .kept(.ul)
        case (2, 0x6c6f): self = .kept(.ol)
        case (2, 0x696c): self = .kept(.li)
        case (10, 0x6f75716b636f6c62) where tail == 0x6574: self = .kept(.blockquote)
        case (2, 0x3168): self = .kept(.h1)
        case (2, 0x3268): self = .kept(.h2)
        case (2, 0x3368): self = .kept(.h3)
        case (2, 0x3468): self = .kept(.h4)
        case (2, 0x3568): self = .kept(.h5)
        case (2, 0x3668): self = .kept(.h6)
        case (3, 0x676d69): self = .kept(.img)
        // script style textarea title xmp iframe noembed noframes noscript
        case (6, 0x747069726373), (5, 0x656c797473), (8, 0x6165726174786574), (5, 0x656c746974), (3, 0x706d78),
             (6, 0x656d61726669), (7, 0x6465626d656f6e), (8, 0x73656d6172666f6e), (8, 0x7470697263736f6e):
            self = .dropped(rawText: true)
        case (9, 0x7865746e69616c70) where tail == 0x74:  // plaintext: everything after it
            self = .dropped(rawText: true)
        // svg math template object head select applet frameset
        case (3, 0x677673), (4, 0x6874616d), (8, 0x6574616c706d6574), (6, 0x7463656a626f), (4, 0x64616568),
             (6, 0x7463656c6573), (6, 0x74656c707061), (8, 0x746573656d617266):
            self = .dropped(rawText: false)
        // div section article header footer dd dt dl hr figure address nav aside main pre table tr
        // center details summary form fieldset caption
        case (3, 0x766964), (7, 0x6e6f6974636573), (7, 0x656c6369747261), (6, 0x726564616568),
             (6, 0x7265746f6f66), (2, 0x6464), (2, 0x7464), (2, 0x6c64), (2, 0x7268), (6, 0x657275676966),
             (7, 0x73736572646461), (3, 0x76616e), (5, 0x6564697361), (4, 0x6e69616d), (3, 0x657270),
             (5, 0x656c626174), (2, 0x7274), (6, 0x7265746e6563), (7, 0x736c6961746564), (7, 0x7972616d6d7573),
             (4, 0x6d726f66), (8, 0x746573646c656966), (7, 0x6e6f6974706163):
            self = .lineBlock
        case (10, 0x6974706163676966) where tail == 0x6e6f:  // figcaption
            self = .lineBlock
        case (2, 0x6474), (2, 0x6874):  // td th
            self = .cell
        default:
            self = .inline
        }
    }
}
