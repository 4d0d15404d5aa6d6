extension String {
    /// Appends `text` with `& < > " '` replaced by entities, so feed text can never open a tag or
    /// leave an attribute value.
    ///
    /// Most text has nothing to escape, so runs between special bytes are appended whole rather
    /// than character by character.
    mutating func appendHTMLEscaped(_ text: String) {
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let entity: String
            switch utf8[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default:
                utf8.formIndex(after: &index)
                continue
            }
            // An ASCII byte's index is always a Unicode scalar boundary, so slicing here is safe.
            append(contentsOf: text[runStart..<index])
            append(entity)
            utf8.formIndex(after: &index)
            runStart = index
        }
        append(contentsOf: text[runStart..<utf8.endIndex])
    }
}
