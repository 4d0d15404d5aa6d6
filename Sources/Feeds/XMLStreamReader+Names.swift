import CLibXML2
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns the current element's name into a `FeedElement` without building a String per element.
///
/// The local name is looked up where libxml2 left it, in the vocabulary's process-wide byte table
/// (`FeedVocabulary.element(in:localName:)`): no per-document table to fill and tear down, which cost
/// the smallest feeds more than their names' lookups. The namespace URI is classified once per parse,
/// a feed's few URIs found again by their address, else by their bytes (libxml2 interns URIs, but
/// `XMLFastScan` hands over each declaration's own, and feeds such as giantbomb's declare
/// `xmlns:itunes` again on every element).
struct NameCache {
    /// The URIs met so far (a feed declares a handful and names dozens of elements in each), their
    /// namespaces, and where each was last handed over: the next element of a namespace mostly points at
    /// the same bytes (libxml2 interns URIs, `XMLFastScan` hands over its declaration's), found without
    /// measuring and comparing them. The bytes stay put for the parse, which this cache lives for.
    /// Three arrays, not one of structs: looking through those copied each, retaining its URI.
    private var uris: [[UInt8]] = []
    private var namespaces: [FeedNamespace] = []
    private var seenAt: [UnsafePointer<xmlChar>] = []

    /// The element for a SAX event's names.
    mutating func element(localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
                          namespaceURI: UnsafePointer<xmlChar>?) -> FeedElement {
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
        if let index = seenAt.firstIndex(of: uri) { return namespaces[index] }
        let length = Int(xmlStrlen(uri))
        for index in uris.indices where uris[index].count == length
            && uris[index].withUnsafeBufferPointer({ memcmp($0.baseAddress!, uri, length) == 0 }) {
            seenAt[index] = uri
            return namespaces[index]
        }
        let bytes = UnsafeBufferPointer(start: uri, count: length)
        let namespace = FeedVocabulary.namespace(uri: bytes)
        // A hostile document can declare a URI per element: past a few dozen, classify without keeping.
        if uris.count < 32 {
            uris.append(Array(bytes))
            namespaces.append(namespace)
            seenAt.append(uri)
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
