import CLibXML2
import Foundation

/// A pull reader over one XML document in memory: libxml2's `xmlTextReader`, either streaming
/// (the normal, fast path) or walking a tree that libxml2's recovery mode rebuilt from a broken document.
///
/// This file and `XMLStreamReader+Names.swift` are the only code that touches libxml2 or its pointers.
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

        /// `XML_ERR_INVALID_CHAR`: what "Input is not proper UTF-8" reports, among others.
        var isInvalidCharacter: Bool { code == Int32(XML_ERR_INVALID_CHAR.rawValue) }
    }

    private let reader: xmlTextReaderPtr
    /// The recovered tree the reader walks, owned here; nil while streaming.
    private let document: xmlDocPtr?
    private let errors: ErrorSink
    var names = NameCache()

    /// The safe options for every parse; see the type's summary.
    private static let options: Int32 = Int32(bitPattern:
        XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)

    /// `xmlInitParser()` and the refusing entity loader, exactly once per process, before the first parse.
    private static let libraryReady: Void = {
        xmlInitParser()
        earshot_xml_install_safe_loader()
    }()

    private init(reader: xmlTextReaderPtr, document: xmlDocPtr?, errors: ErrorSink) {
        self.reader = reader
        self.document = document
        self.errors = errors
    }

    deinit {
        xmlFreeTextReader(reader)
        if let document { xmlFreeDoc(document) }
    }

    /// A streaming reader over `bytes`, which must outlive it (libxml2 reads them in place).
    /// `encoding` overrides what the document declares (used to re-read mislabelled Latin-1).
    static func streaming(_ bytes: UnsafeRawBufferPointer, encoding: String? = nil) -> XMLStreamReader? {
        _ = libraryReady
        guard let base = bytes.baseAddress, let size = Int32(exactly: bytes.count) else { return nil }
        let created = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            xmlReaderForMemory(chars, size, "feed.xml", encoding, options)
        }
        guard let created else { return nil }
        let errors = ErrorSink()
        xmlTextReaderSetStructuredErrorHandler(created, recordError, Unmanaged.passUnretained(errors).toOpaque())
        return XMLStreamReader(reader: created, document: nil, errors: errors)
    }

    /// A reader over the tree libxml2's recovery mode builds from `bytes`, for documents the streaming reader
    /// gave up on (an undefined entity, a stray byte). Nil when not even a root element could be recovered.
    static func recovered(_ bytes: UnsafeRawBufferPointer) -> XMLStreamReader? {
        _ = libraryReady
        guard let base = bytes.baseAddress, let size = Int32(exactly: bytes.count) else { return nil }
        let quiet = options | Int32(bitPattern: XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            xmlReadMemory(chars, size, "feed.xml", nil, quiet)
        }
        guard let parsed else { return nil }
        guard xmlDocGetRootElement(parsed) != nil, let walker = xmlReaderWalker(parsed) else {
            xmlFreeDoc(parsed)
            return nil
        }
        return XMLStreamReader(reader: walker, document: parsed, errors: ErrorSink())
    }

    /// The first error libxml2 reported, fatal or not (namespace errors included).
    var firstError: Failure? { errors.first }

    /// Moves to the next node; nil at the end of the document. Throws when libxml2 gives up (a fatal error
    /// in streaming mode: the caller may retry with `recovered`).
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

/// Collects libxml2's errors for one reader (the structured handler's user data). Keeps the first message
/// and the first fatal one; later errors are only counted, so a feed with thousands of namespace errors
/// costs no allocations.
private final class ErrorSink {
    var first: XMLStreamReader.Failure?
    var fatal: XMLStreamReader.Failure?
    var count = 0

    func record(code: Int32, isFatal: Bool, message: UnsafeMutablePointer<CChar>?) {
        count += 1
        if first != nil && (fatal != nil || !isFatal) { return }
        let text = message.map { String(cString: $0).trimmingWhitespace() } ?? "error \(code)"
        let failure = XMLStreamReader.Failure(code: code, message: text)
        if first == nil { first = failure }
        if isFatal && fatal == nil { fatal = failure }
    }
}

/// The structured error handler: a plain C function, so it captures nothing and finds its sink through `context`.
private func recordError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
    sink.record(code: error.pointee.code, isFatal: error.pointee.level == XML_ERR_FATAL, message: error.pointee.message)
}

private extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
