import EarshotCore
import Foundation
import TestSupport
import Testing
@testable import Feeds

/// Documents made to hurt: each gives a clear error or a safe parse, within generous bounds of memory and
/// a time limit (the point is that they are bounded: a runaway would take minutes or gigabytes; how fast
/// a parse is, is `make bench`'s to say).
@Suite(.timeLimit(.minutes(1))) struct HostileInputTests {
    static let base = URL(string: "https://example.com/feed.xml")!

    /// What a parse cost: its outcome and how far the process's peak memory rose
    /// (Linux: the peak is reset through `/proc/self/clear_refs` first; other tests running meanwhile
    /// only make the figure larger).
    struct Cost {
        var result: Result<FeedContent, any Error>
        var peakGrowth: Int
    }

    /// Measures a parse as `HeavyWork` (off the cooperative pool, one at a time).
    static func measure(_ data: Data, keepAll: Bool = true) async throws -> Cost {
        try await HeavyWork.run { measureHere(data, keepAll: keepAll) }
    }

    static func measureHere(_ data: Data, keepAll: Bool) -> Cost {
        let before = residentBytes()
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let result = Result<FeedContent, any Error> { try FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: keepAll) }
        return Cost(result: result, peakGrowth: max(0, peakResidentBytes() - before))
    }

    static func procStatus(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "") else { return 0 }
        return kilobytes * 1024
    }

    static func residentBytes() -> Int { procStatus("VmRSS") }
    static func peakResidentBytes() -> Int { procStatus("VmHWM") }

    static let megabyte = 1 << 20

    /// The same random bytes on every run.
    static func junk(seed: UInt64, count: Int) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    @Test func billionLaughsStaysSmall() async throws {
        var entities = [#"<!ENTITY lol "lol">"#]
        for level in 1...12 {
            let previous = level == 1 ? "&lol;" : "&lol\(level - 1);"
            entities.append("<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">")
        }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [\(entities.joined(separator: "\n"))]>
            <rss><channel><title>&lol12;</title><item><title>&lol12;</title><description>&lol12;</description>
            <enclosure url="a.mp3"/></item></channel></rss>
            """
        let cost = try await Self.measure(Data(document.utf8))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        if case .success(let content) = cost.result {
            #expect(content.title.utf8.count < 10_000)
            #expect(content.items.allSatisfy { $0.title.utf8.count < 10_000 && $0.summary.utf8.count < 10_000 })
        }
    }

    @Test func externalEntityToALocalFileIsNeverRead() async throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/hostname"><!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
            <rss><channel><title>T &xxe;</title><item><title>&xxe;</title><enclosure url="a.mp3"/></item></channel></rss>
            """
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "no-hostname-here"
        let cost = try await Self.measure(Data(document.utf8))
        if case .success(let content) = cost.result {
            let text = ([content.title] + content.items.map(\.title)).joined(separator: "\n")
            #expect(!text.contains(hostname) || hostname.isEmpty)
            #expect(!text.contains("root:"))
        }
    }

    @Test func aOneMegabyteTitleIsKeptWhole() async throws {
        let title = String(repeating: "Long title ", count: Self.megabyte / 11)
        let document = "<rss><channel><title>\(title)</title><item><title>\(title)</title><enclosure url=\"a.mp3\"/></item></channel></rss>"
        let cost = try await Self.measure(Data(document.utf8))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        let content = try cost.result.get()
        #expect(content.title.utf8.count == title.utf8.count - 1)  // squashed: the trailing space goes
        #expect(content.items.count == 1)
    }

    @Test func aHundredThousandItemsParse() async throws {
        // The same item 100,000 times (the parser does not merge: that is the library's job), then one more.
        let item = "<item><title>Episode</title><guid>g</guid><enclosure url=\"e.mp3\" type=\"audio/mpeg\"/>"
            + "<itunes:duration>1:00</itunes:duration><description>&lt;p&gt;Notes&lt;/p&gt;</description></item>"
        let document = "<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Many</title>"
            + String(repeating: item, count: 99_999) + item.replacingOccurrences(of: "Episode", with: "Last")
            + "</channel></rss>"
        let cost = try await Self.measure(Data(document.utf8))
        #expect(cost.peakGrowth < 500 * Self.megabyte)
        let content = try cost.result.get()
        #expect(content.items.count == 100_000)
        #expect(content.items.last?.title == "Last")
        #expect(content.items.last?.duration == 60)
        #expect(content.items.last?.details.notes.nodes == [.element("p", attributes: [:], children: [.text("Notes")])])
    }

    @Test(arguments: [1, 2, 3])
    func binaryJunkIsRefused(_ seed: UInt64) async throws {
        let junk = try await HeavyWork.run { Self.junk(seed: seed, count: Self.megabyte) }
        let cost = try await Self.measure(junk)
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        guard case .failure(let error) = cost.result else {
            Issue.record("junk parsed as a feed")
            return
        }
        #expect(error is FeedError)
        #expect(!"\(error)".isEmpty)
    }

    @Test func junkAfterAValidStartEndsWithWhatWasRead() async throws {
        var data = Data("<rss><channel><title>Cut</title><item><title>A</title><enclosure url=\"a.mp3\"/></item>".utf8)
        data.append(try await HeavyWork.run { Self.junk(seed: 9, count: Self.megabyte) })
        let cost = try await Self.measure(data)
        let content = try cost.result.get()
        #expect(content.title == "Cut")
        #expect(content.items.map(\.title).first == "A")
        #expect(!content.warnings.isEmpty)
    }

    @Test(arguments: [
        "<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>Shop</title></head><body><p>Buy<br>now",
        "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>XHTML</title></head><body/></html>",
        "\n\n<!doctype HTML><HTML><BODY>" + String(repeating: "<div class=x>text &nbsp; more</div>", count: 30_000),
    ])
    func anHTMLPageIsNoFeed(_ page: String) async throws {
        let cost = try await Self.measure(Data(page.utf8))
        guard case .failure(let error) = cost.result, let feedError = error as? FeedError else {
            Issue.record("an HTML page was accepted")
            return
        }
        #expect(feedError == .notAFeed(rootElement: "html"))
        #expect(feedError.description.contains("not a podcast feed"))
    }

    @Test func deepNestingIsBounded() async throws {
        let depth = 100_000
        let document = "<rss><channel><title>Deep</title><item><description>" + String(repeating: "<div>", count: depth)
            + "x" + String(repeating: "</div>", count: depth) + "</description><enclosure url=\"a.mp3\"/></item></channel></rss>"
        let cost = try await Self.measure(Data(document.utf8))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        if case .success(let content) = cost.result {
            #expect(content.title == "Deep")
        }
    }

    @Test func hugeShowNotesStayLinear() async throws {
        // 8 MB of notes in one item, every construct the sanitizer knows, repeated.
        let unit = #"<p class="x" style="y">Text &amp; <a href="https://e.example/?a=1&b=2" onclick="z">link</a>"#
            + #"<script>bad()</script><!-- c --><img src="https://e.example/i.png" alt="i"><br></p>"#
        let notes = String(repeating: unit, count: 8 * Self.megabyte / unit.utf8.count)
        let document = "<rss><channel><title>T</title><item><enclosure url=\"a.mp3\"/><description><![CDATA[\(notes)]]></description></item></channel></rss>"
        let cost = try await Self.measure(Data(document.utf8))
        let item = try #require(try cost.result.get().items.first)
        #expect(item.details.notes.nodes.count == 8 * Self.megabyte / unit.utf8.count)
        #expect(ShowNotesTests.violations(item.details.notes).isEmpty)
    }
}

