import CLibXML2
import EarshotCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns the current element's name into a `FeedElement` without building a String per element.
///
/// The local name is looked up where libxml2 left it, in the vocabulary's process-wide tables
/// (`FeedVocabulary.element(in:localName:)`; a name of up to 16 bytes packed into two words as it is
/// measured): no per-document table to fill and tear down, which cost the smallest feeds more than
/// their names' lookups. The namespace URI is classified once per parse,
/// a feed's few URIs found again by their address, else by their bytes (libxml2 interns URIs, but
/// `XMLFastScan` hands over each declaration's own, and feeds such as giantbomb's declare
/// `xmlns:itunes` again on every element).
struct NameCache {
    /// The URIs met so far (a feed declares a handful and names dozens of elements in each) and their
    /// namespaces. A URI is kept by where its bytes lie, which stay put for the parse this cache lives
    /// for: the next element of a namespace mostly points at the same bytes (libxml2 interns URIs,
    /// `XMLFastScan` hands over its declaration's), found without measuring and comparing them; a URI
    /// declared again elsewhere (giantbomb's `xmlns:itunes` on every element) is found by its bytes, and
    /// its new place kept. Plain values, one array: nothing retained, one allocation a parse.
    private var seen: [SeenURI] = []
    /// The last URI looked up and its namespace: runs of elements share one (an item's `itunes:` fields,
    /// a chapter list), found without a search.
    private var lastAt: UnsafePointer<xmlChar>?
    private var lastNamespace = FeedNamespace.other

    private struct SeenURI {
        var at: UnsafePointer<xmlChar>
        var length: Int
        var namespace: FeedNamespace
    }

    /// The element for a SAX event's names.
    mutating func element(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
                          namespaceURI: UnsafePointer<xmlChar>?) -> FeedElement {
        // Most names are 16 bytes or fewer: packed as they are measured, and found by their words.
        if let (packed, _) = PackedNameTable<FeedElement>.pack(terminated: localName) {
            if let namespaceURI { return FeedVocabulary.element(in: namespace(namespaceURI), packed: packed) }
            // No colon (the undeclared-prefix rule below): a name in no namespace, RSS 2.0's.
            if prefix == nil, ByteWord.equal(packed.low, UInt8(ascii: ":")) | ByteWord.equal(packed.high, UInt8(ascii: ":")) == 0 {
                return FeedVocabulary.element(in: .rss, packed: packed)
            }
        }
        let name = UnsafeBufferPointer(start: localName, count: Int(xmlStrlen(localName)))
        if let namespaceURI { return FeedVocabulary.element(in: namespace(namespaceURI), localName: name) }
        // A prefix without a namespace is an undeclared one ("itunes:duration" with no xmlns:itunes).
        if let prefix {
            let prefixBytes = UnsafeBufferPointer(start: prefix, count: Int(xmlStrlen(prefix)))
            return FeedVocabulary.element(in: FeedVocabulary.namespace(undeclaredPrefix: prefixBytes), localName: name)
        }
        return Self.unprefixed(name)
    }

    /// A name in no namespace: RSS 2.0's, unless libxml2 left a colon in it (the undeclared-prefix rule).
    private static func unprefixed(_ name: UnsafeBufferPointer<UInt8>) -> FeedElement {
        guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else { return FeedVocabulary.element(in: .rss, localName: name) }
        return FeedVocabulary.element(in: FeedVocabulary.namespace(undeclaredPrefix: UnsafeBufferPointer(rebasing: name[..<colon])),
                                      localName: UnsafeBufferPointer(rebasing: name[(colon + 1)...]))
    }

    private mutating func namespace(_ uri: UnsafePointer<xmlChar>) -> FeedNamespace {
        if uri == lastAt { return lastNamespace }
        let namespace = lookUp(uri)
        (lastAt, lastNamespace) = (uri, namespace)
        return namespace
    }

    private mutating func lookUp(_ uri: UnsafePointer<xmlChar>) -> FeedNamespace {
        let count = seen.count
        if let found = seen.withUnsafeBufferPointer({ seen in (0..<count).first { seen[$0].at == uri } }) {
            return seen[found].namespace
        }
        let length = Int(xmlStrlen(uri))
        if let found = seen.withUnsafeBufferPointer({ seen in
            (0..<count).first { seen[$0].length == length && memcmp(seen[$0].at, uri, length) == 0 }
        }) {
            seen[found].at = uri
            return seen[found].namespace
        }
        let namespace = FeedVocabulary.namespace(uri: UnsafeBufferPointer(start: uri, count: length))
        // A hostile document can declare a URI per element: past a few dozen, classify without keeping.
        if count < 32 {
            if count == 0 { seen.reserveCapacity(16) }
            seen.append(SeenURI(at: uri, length: length, namespace: namespace))
        }
        return namespace
    }

    /// The reader's current element.
    mutating func element(_ reader: xmlTextReaderPtr) -> FeedElement {
        guard let localName = xmlTextReaderConstLocalName(reader) else { return .unknown }
        let name = UnsafeBufferPointer(start: localName, count: Int(xmlStrlen(localName)))
        guard let uri = xmlTextReaderConstNamespaceUri(reader) else { return Self.unprefixed(name) }
        return FeedVocabulary.element(in: namespace(uri), localName: name)
    }
}
