import EarshotCore
import Foundation
import Testing
import TestSupport
@testable import Feeds

/// Hostile documents: external entities must never be read, entity bombs must not expand.
@Suite struct FeedSecurityTests {
    static let base = URL(string: "https://example.com/feed.xml")!

    /// Everything the parser returned, flattened, to search for leaked text.
    static func allText(_ content: FeedContent) -> String {
        ([content.title, content.author, content.summary, content.artworkURL ?? "", content.link ?? ""]
            + content.items.flatMap { [$0.title, $0.summary, $0.guid, $0.enclosureURL, $0.link ?? ""] })
            .joined(separator: "\n")
    }

    /// Parses `document`; a thrown `FeedError` is an acceptable outcome for a hostile document, so it gives nil.
    static func parseOrReject(_ document: String) throws -> FeedContent? {
        do {
            return try FeedParser.parse(Data(document.utf8), baseURL: base, keepingItemsWithoutEnclosure: true)
        } catch is FeedError {
            return nil
        }
    }

    @Test func doesNotReadExternalEntities() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let planted = try PlantedSecret(in: directory)
        let (secret, secretFile, dtd) = (planted.text, planted.file, planted.dtd)

        let documents = [
            // A general external entity in text.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY x SYSTEM "\(secretFile.absoluteString)">]>
            <rss><channel><title>Hello &x;</title>
            <item><title>&x;</title><description>&x;</description><enclosure url="a.mp3"/></item></channel></rss>
            """,
            // A parameter entity pulling in an external DTD that defines the entity.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY % remote SYSTEM "\(dtd.absoluteString)"> %remote;]>
            <rss><channel><title>Hello &leak;</title><item><title>&leak;</title><enclosure url="a.mp3"/></item></channel></rss>
            """,
            // An external DTD subset.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss SYSTEM "\(dtd.absoluteString)">
            <rss><channel><title>Hello &leak;</title><item><title>&leak;</title><enclosure url="a.mp3"/></item></channel></rss>
            """,
        ]
        for document in documents {
            if let content = try Self.parseOrReject(document) {
                #expect(!Self.allText(content).contains(secret))
            }
        }
    }

    @Test func doesNotLeakEtcPasswd() throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <rss><channel><title>Hello &x;</title><item><title>&x;</title><enclosure url="a.mp3"/></item></channel></rss>
            """
        let content = try #require(try Self.parseOrReject(document))
        #expect(content.title == "Hello")
        #expect(!Self.allText(content).contains("root:"))
    }

    @Test(.timeLimit(.minutes(1))) func defusesABillionLaughs() throws {
        var entities = [#"<!ENTITY lol "lol">"#]
        for level in 1...9 {
            let previous = level == 1 ? "&lol;" : "&lol\(level - 1);"
            entities.append("<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">")
        }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [\(entities.joined(separator: "\n"))]>
            <rss><channel><title>&lol9;</title><item><title>&lol9;</title><description>&lol9;</description>
            <enclosure url="a.mp3"/></item></channel></rss>
            """
        // Expanded, the title alone would be 3 GB (the test's time limit catches a runaway).
        if let content = try Self.parseOrReject(document) { #expect(Self.allText(content).utf8.count < 10_000) }
    }

    @Test(.timeLimit(.minutes(1))) func doesNotExpandQuadraticBlowup() throws {
        // One big entity referenced many times: linear in the document if references stay unexpanded.
        let big = String(repeating: "x", count: 100_000)
        let references = String(repeating: "&big;", count: 10_000)
        let document = """
            <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY big "\(big)">]>
            <rss><channel><title>\(references)</title><item><title>t</title><enclosure url="a.mp3"/></item></channel></rss>
            """
        if let content = try Self.parseOrReject(document) { #expect(content.title.utf8.count < 1_000_000) }
    }
}
