import Foundation
import TestSupport
import Testing
@testable import Feeds

/// Namespace URIs as feeds write them: any case, with or without a scheme, trailing slashes.
@Suite struct FeedVocabularyTests {
    /// What `namespace(uri:)` said before it read bytes: Unicode lowercasing, prefixes and a switch over strings.
    static func reference(_ uri: String) -> FeedNamespace {
        var key = Substring(uri.lowercased())
        for scheme in ["http://", "https://"] where key.hasPrefix(scheme) {
            key = key.dropFirst(scheme.count)
        }
        while key.hasSuffix("/") { key = key.dropLast() }
        switch key {
        case "", "purl.org/rss/1.0", "backend.userland.com/rss2": return .rss
        case "www.itunes.com/dtds/podcast-1.0.dtd": return .itunes
        case "www.w3.org/2005/atom", "purl.org/atom/ns#": return .atom
        case "purl.org/rss/1.0/modules/content": return .content
        case "search.yahoo.com/mrss": return .media
        case "purl.org/dc/elements/1.1": return .dublinCore
        case "www.w3.org/1999/02/22-rdf-syntax-ns#": return .rdf
        case "podcastindex.org/namespace/1.0", "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": return .podcast
        case "podlove.org/simple-chapters": return .psc
        default: return .other
        }
    }

    @Test("every known URI in any case, scheme and trailing slashes, and near misses, as before (property)")
    func namespaces() {
        let known = ["purl.org/rss/1.0", "backend.userland.com/rss2", "www.itunes.com/dtds/podcast-1.0.dtd", "www.w3.org/2005/Atom",
                     "purl.org/atom/ns#", "purl.org/rss/1.0/modules/content/", "search.yahoo.com/mrss/", "purl.org/dc/elements/1.1/",
                     "www.w3.org/1999/02/22-rdf-syntax-ns#", "podcastindex.org/namespace/1.0",
                     "github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md", "podlove.org/simple-chapters", "", "example.com/ns"]
        let schemes = ["", "http://", "https://", "HTTP://", "Https://", "http://https://", "ftp://", "http:/"]
        var random = SplitMix64(seed: 54)
        for _ in 0..<20_000 {
            var uri = schemes[Int(random.next() % UInt64(schemes.count))] + known[Int(random.next() % UInt64(known.count))]
            uri = String(uri.map { random.next() % 4 == 0 ? Character($0.uppercased()) : $0 })
            uri += String(repeating: "/", count: Int(random.next() % 3))
            if random.next() % 6 == 0, !uri.isEmpty { uri.remove(at: uri.index(uri.startIndex, offsetBy: Int(random.next() % UInt64(uri.count)))) }
            if random.next() % 10 == 0 { uri += "é" }
            #expect(FeedVocabulary.namespace(uri: uri) == Self.reference(uri), "\(uri)")
        }
        #expect(FeedVocabulary.namespace(uri: "HTTP://WWW.ITUNES.COM/DTDS/PODCAST-1.0.DTD/") == .itunes)
        #expect(FeedVocabulary.namespace(uri: "https://podcastindex.org/namespace/1.0") == .podcast)
        #expect(FeedVocabulary.namespace(uri: "http://www.w3.org/2005/Atom") == .atom)
        #expect(FeedVocabulary.namespace(uri: "urn:other") == .other)
    }

    /// Every name of the vocabulary, and near misses of each (case changed, cut, lengthened, under another
    /// namespace), read from the byte table as the written dictionary reads them.
    @Test("the byte table gives every name's element and nothing for near misses (property)")
    func elementNames() {
        let namespaces: [FeedNamespace] = [.rss, .itunes, .atom, .content, .media, .dublinCore, .rdf, .podcast, .psc, .other]
        let all = Set(FeedVocabulary.names.values.flatMap(\.keys))
        var reached = Set<FeedElement>()
        var random = SplitMix64(seed: 77)
        for name in all {
            var candidates = [name, name.uppercased(), String(name.dropLast()), name + "s", "x" + name, String(name.dropFirst()), ""]
            // Lengthened to 15, 16 and 17 bytes: either side of what a name packs into.
            candidates += (15...17).map { name + String(repeating: "_", count: max(0, $0 - name.utf8.count)) }
            candidates.append(String(name.map { random.next() % 3 == 0 ? Character($0.uppercased()) : $0 }))
            for namespace in namespaces {
                for candidate in candidates {
                    let expected = FeedVocabulary.names[namespace]?[candidate] ?? .unknown
                    var bytes = candidate
                    let found = bytes.withUTF8 { FeedVocabulary.element(in: namespace, localName: $0) }
                    #expect(found == expected, "\(namespace) \(candidate)")
                    reached.insert(found)
                    // The packed table (names of up to 16 bytes), packed from a buffer and from a NUL-terminated name.
                    let packed = bytes.withUTF8 { PackedNameTable<FeedElement>.pack($0) }
                    let terminated = candidate.withCString { name in
                        name.withMemoryRebound(to: UInt8.self, capacity: candidate.utf8.count + 1) {
                            PackedNameTable<FeedElement>.pack(terminated: $0)
                        }
                    }
                    #expect((packed == nil) == (candidate.utf8.count > 16) && terminated?.packed == packed, "\(candidate)")
                    #expect(terminated.map { $0.length } ?? 17 == min(candidate.utf8.count, 17), "\(candidate)")
                    if let packed {
                        #expect(FeedVocabulary.element(in: namespace, packed: packed) == expected, "packed: \(namespace) \(candidate)")
                    }
                }
            }
        }
        #expect(reached == Set(FeedElement.allCases), "every element is some name's")
        #expect(FeedVocabulary.element(namespaceURI: nil, localName: "itunes:duration") == .itunesDuration)
        #expect(FeedVocabulary.element(namespaceURI: nil, localName: "podcast:guid") == .podcastGUID)
        #expect(FeedVocabulary.element(namespaceURI: nil, localName: "nope:guid") == .unknown)
        #expect(FeedVocabulary.element(namespaceURI: "http://www.itunes.com/dtds/podcast-1.0.dtd", localName: "duration") == .itunesDuration)
    }
}
