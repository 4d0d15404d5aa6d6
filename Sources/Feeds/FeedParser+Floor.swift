import FoundationEssentials

extension FeedParser {
    /// Reads `file` the way `parse(contentsOf:)` does — a chunk at a time through libxml2's SAX parser,
    /// same options — and does nothing with the events but count the elements. No parse on libxml2 can
    /// be faster: `make bench` runs it beside the full parse to show how much of a parse's time is the
    /// library's own.
    public static func scanOnly(contentsOf file: URL) throws -> Int {
        let source = try FeedFile(file)
        let counter = ElementCounter()
        _ = XMLEventStream.parse(chunks: source.next, handler: counter)
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
