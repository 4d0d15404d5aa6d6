/// What a tag does to the text around it, by name (matched on the lowercased first 8 bytes + length).
enum HTMLTag {
    case lineBreak, paragraph, block, listItem, cell, inline
    /// Content that is never shown: skipped up to the closing tag.
    case hidden(StaticString)

    init(length: Int, packed: UInt64) {
        switch (length, packed) {
        case (2, 0x7262): self = .lineBreak                                       // br
        case (1, 0x70): self = .paragraph                                         // p
        case (2, 0x696c): self = .listItem                                        // li
        case (2, 0x6474), (2, 0x6874): self = .cell                               // td th
        case (3, 0x766964), (2, 0x3168), (2, 0x3268), (2, 0x3368), (2, 0x3468),   // div h1 h2 h3 h4
             (2, 0x3568), (2, 0x3668), (2, 0x6c75), (2, 0x6c6f), (2, 0x7274),     // h5 h6 ul ol tr
             (5, 0x656c626174), (10, 0x6f75716b636f6c62), (3, 0x657270),          // table blockquote pre
             (7, 0x6e6f6974636573), (7, 0x656c6369747261), (6, 0x726564616568),   // section article header
             (6, 0x7265746f6f66), (2, 0x6464), (2, 0x7464), (2, 0x6c64),          // footer dd dt dl
             (2, 0x7268), (6, 0x657275676966), (10, 0x6974706163676966),          // hr figure figcaption
             (7, 0x73736572646461), (3, 0x76616e), (5, 0x6564697361),             // address nav aside
             (4, 0x6e69616d):                                                     // main
            self = .block
        case (6, 0x747069726373): self = .hidden("script")
        case (5, 0x656c797473): self = .hidden("style")
        case (8, 0x6574616c706d6574): self = .hidden("template")
        case (4, 0x64616568): self = .hidden("head")
        default: self = .inline
        }
    }
}
