import CLibXML2
import FoundationEssentials

/// A pull reader over one XML document in memory: libxml2's `xmlTextReader`, streaming. OPML files are
/// read with it; feeds go through `XMLEventStream` (SAX), which the reader is too slow for.
///
/// This file and the other `XMLStreamReader*.swift` are the only code that touches libxml2 or its pointers.
/// Options are fixed here: no entity substitution, no DTD loading or validation, no XInclude, no network,
/// no "huge" limits; an external-entity loader that refuses everything is installed once, before any parse.
final class XMLStreamReader {
    /// What the reader is positioned on after `read()`.
    enum Node: Equatable {
        case startElement(FeedElement, isEmpty: Bool)
        case endElement
        /// Character data: text, CDATA (merged by `NOCDATA`) or whitespace.
        case text
        /// Comments, processing instructions, entity references (never expanded), the doctype.
        case other
    }

    /// libxml2's first fatal error, which stopped the streaming parse.
    struct Failure: Error {
        let code: Int32
        let message: String
        /// The line libxml2 was reading (1-based), 0 when it did not say.
        var line = 0

        /// `XML_ERR_INVALID_CHAR`: what "Input is not proper UTF-8" and "PCDATA invalid Char value" report.
        var isInvalidCharacter: Bool { code == Int32(XML_ERR_INVALID_CHAR.rawValue) }

        /// `XML_ERR_UNDECLARED_ENTITY`: `&gtgt;`, an HTML entity in a feed.
        var isUndefinedEntity: Bool { code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue) }
    }

    private let reader: xmlTextReaderPtr
    private let errors: ErrorSink
    var names = NameCache()

    /// The safe options for every parse; see the type's summary.
    static let options: Int32 = Int32(bitPattern:
        XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)

    /// `xmlInitParser()` and the refusing entity loader, exactly once per process, before the first parse.
    private static let libraryReady: Void = {
        xmlInitParser()
        earshot_xml_install_safe_loader()
    }()

    /// Makes sure `libraryReady` ran (for the other libxml2 wrappers).
    static func prepareLibrary() { _ = libraryReady }

    private init(reader: xmlTextReaderPtr, errors: ErrorSink) {
        self.reader = reader
        self.errors = errors
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// A streaming reader over `bytes`, which must outlive it (libxml2 reads them in place).
    static func streaming(_ bytes: UnsafeRawBufferPointer) -> XMLStreamReader? {
        _ = libraryReady
        guard let base = bytes.baseAddress, let size = Int32(exactly: bytes.count) else { return nil }
        let created = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            xmlReaderForMemory(chars, size, "feed.xml", nil, options)
        }
        guard let created else { return nil }
        let errors = ErrorSink()
        xmlTextReaderSetStructuredErrorHandler(created, recordError, Unmanaged.passUnretained(errors).toOpaque())
        return XMLStreamReader(reader: created, errors: errors)
    }

    /// Moves to the next node; nil at the end of the document. Throws when libxml2 gives up (a fatal error).
    func read() throws(Failure) -> Node? {
        let status = xmlTextReaderRead(reader)
        if status == 0 { return nil }
        if status < 0 {
            throw errors.fatal ?? errors.first ?? Failure(code: -1, message: "unreadable document")
        }
        switch xmlTextReaderNodeType(reader) {
        case Self.elementType:
            let element = names.element(reader)
            return .startElement(element, isEmpty: xmlTextReaderIsEmptyElement(reader) == 1)
        case Self.endElementType:
            return .endElement
        case Self.textType, Self.cdataType, Self.whitespaceType, Self.significantWhitespaceType:
            return .text
        default:
            return .other
        }
    }

    /// Appends the current text node's bytes (UTF-8) to `buffer`, without an intermediate String.
    func appendValue(to buffer: inout [UInt8]) {
        guard let value = xmlTextReaderConstValue(reader) else { return }
        buffer.append(contentsOf: UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))))
    }

    /// Appends the current element's local name (for rebuilding inline XHTML as markup text).
    func appendLocalName(to buffer: inout [UInt8]) {
        guard let name = xmlTextReaderConstLocalName(reader) else { return }
        buffer.append(contentsOf: UnsafeBufferPointer(start: name, count: Int(xmlStrlen(name))))
    }

    /// The current element's name as written (`itunes:image`), for error messages.
    var qualifiedName: String {
        guard let name = xmlTextReaderConstName(reader) else { return "" }
        return String(cString: name)
    }

    /// The value of the current element's attribute `name` (no namespace), or nil when absent.
    func attribute(_ name: String) -> String? {
        let value = name.withCString { cName in
            cName.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) { xmlTextReaderGetAttribute(reader, $0) }
        }
        guard let value else { return nil }
        defer { earshot_xml_free(value) }
        return String(cString: value)
    }

    private static let elementType = Int32(XML_READER_TYPE_ELEMENT.rawValue)
    private static let endElementType = Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
    private static let textType = Int32(XML_READER_TYPE_TEXT.rawValue)
    private static let cdataType = Int32(XML_READER_TYPE_CDATA.rawValue)
    private static let whitespaceType = Int32(XML_READER_TYPE_WHITESPACE.rawValue)
    private static let significantWhitespaceType = Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue)
}

/// Collects libxml2's errors for one parse (the structured handler's user data). Keeps the first message
/// and the first fatal one; later errors are only counted, so a feed with thousands of namespace errors
/// costs no allocations.
final class ErrorSink {
    var first: XMLStreamReader.Failure?
    var fatal: XMLStreamReader.Failure?
    var count = 0

    func record(code: Int32, isFatal: Bool, message: UnsafeMutablePointer<CChar>?, line: Int32) {
        count += 1
        if first != nil && (fatal != nil || !isFatal) { return }
        let text = message.map { String(cString: $0).trimmingTrailingWhitespace() } ?? "error \(code)"
        let failure = XMLStreamReader.Failure(code: code, message: text, line: Int(line))
        if first == nil { first = failure }
        if isFatal && fatal == nil { fatal = failure }
    }
}

/// The structured error handler: a plain C function, so it captures nothing and finds its sink through `context`.
func recordError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
    sink.record(code: error.pointee.code, isFatal: error.pointee.level == XML_ERR_FATAL, message: error.pointee.message,
                line: error.pointee.line)
}

private extension String {
    func trimmingTrailingWhitespace() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
