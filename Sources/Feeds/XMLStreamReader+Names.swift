import CLibXML2
import Foundation

/// Turns the current element's name into a `FeedElement` without building a String per element.
///
/// libxml2 interns names in the reader's dictionary, so one (namespace URI, local name) pointer pair stands
/// for one name for the whole parse: the cache classifies each pair once. The namespace URI comes from
/// `xmlTextReaderConstNamespaceUri`, which always interns; the local name is re-checked byte for byte on
/// every hit, so a name that was not interned (and whose memory could be reused) can never be misread.
struct NameCache {
    private struct Key: Hashable {
        let namespace: UInt
        let name: UInt
    }

    private struct Entry {
        let element: FeedElement
        let name: [UInt8]
    }

    private var entries: [Key: Entry] = [:]

    mutating func element(_ reader: xmlTextReaderPtr) -> FeedElement {
        guard let name = xmlTextReaderConstLocalName(reader) else { return .unknown }
        let namespace = xmlTextReaderConstNamespaceUri(reader)
        let key = Key(namespace: UInt(bitPattern: namespace), name: UInt(bitPattern: name))
        let length = Int(xmlStrlen(name))
        if let entry = entries[key], entry.name.count == length,
           entry.name.elementsEqual(UnsafeBufferPointer(start: name, count: length)) {
            return entry.element
        }
        let nameBytes = Array(UnsafeBufferPointer(start: name, count: length))
        let element = FeedVocabulary.element(
            namespaceURI: namespace.map { String(cString: $0) },
            localName: String(decoding: nameBytes, as: UTF8.self))
        entries[key] = Entry(element: element, name: nameBytes)
        return element
    }
}
