import FoundationEssentials

extension FeedParser {
    /// Reads `file` the way `parse(contentsOf:)` does — a chunk at a time through libxml2's SAX parser,
    /// same options — and does nothing with the events but count the elements. libxml2 reads every byte,
    /// CDATA sections too (the full parse hands those over itself: `CDATASection`): the time of libxml2's
    /// SAX pass alone, which `make bench` runs beside the full parse.
    public static func scanOnly(contentsOf file: URL) throws -> Int {
        let source = try FeedFile(file)
        let counter = ElementCounter()
        _ = XMLEventStream.parse(chunks: source.next, handler: counter, readingCDATA: false)
        return counter.elements
    }
}

/// The handler of `scanOnly`: counts start tags, nothing else.
private final class ElementCounter: XMLEventHandler {
    var elements = 0
    func startElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) { elements += 1 }
    func endElement(_ element: XMLEventStream.Element, in stream: XMLEventStream) {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}
