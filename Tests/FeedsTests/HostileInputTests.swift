import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Documents made to hurt: each gives a clear error or a safe parse, within generous bounds of time and
/// memory (the point is that they are bounded: a runaway would take minutes or gigabytes).
@Suite struct HostileInputTests {
    static let base = URL(string: "https://example.com/feed.xml")!

    /// What a parse cost: its outcome, the time it took and how far the process's peak memory rose
    /// (Linux: the peak is reset through `/proc/self/clear_refs` first; other tests running meanwhile
    /// only make the figure larger).
    struct Cost {
        var result: Result<FeedContent, any Error>
        var elapsed: Duration
        var peakGrowth: Int
    }

    static func measure(_ data: Data, keepAll: Bool = true) -> Cost {
        let before = residentBytes()
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        var result: Result<FeedContent, any Error> = .failure(FeedError.empty)
        let elapsed = ContinuousClock().measure {
            result = Result { try FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: keepAll) }
        }
        return Cost(result: result, elapsed: elapsed, peakGrowth: max(0, peakResidentBytes() - before))
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

    @Test func billionLaughsStaysSmall() {
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
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        if case .success(let content) = cost.result {
            #expect(content.title.utf8.count < 10_000)
            #expect(content.items.allSatisfy { $0.title.utf8.count < 10_000 && $0.summary.utf8.count < 10_000 })
        }
    }

    @Test func externalEntityToALocalFileIsNeverRead() throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/hostname"><!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
            <rss><channel><title>T &xxe;</title><item><title>&xxe;</title><enclosure url="a.mp3"/></item></channel></rss>
            """
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "no-hostname-here"
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        if case .success(let content) = cost.result {
            let text = ([content.title] + content.items.map(\.title)).joined(separator: "\n")
            #expect(!text.contains(hostname) || hostname.isEmpty)
            #expect(!text.contains("root:"))
        }
    }

    @Test func aOneMegabyteTitleIsKeptWhole() throws {
        let title = String(repeating: "Long title ", count: Self.megabyte / 11)
        let document = "<rss><channel><title>\(title)</title><item><title>\(title)</title><enclosure url=\"a.mp3\"/></item></channel></rss>"
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        let content = try cost.result.get()
        #expect(content.title.utf8.count == title.utf8.count - 1)  // squashed: the trailing space goes
        #expect(content.items.count == 1)
    }

    @Test func aHundredThousandItemsParse() throws {
        var document = "<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Many</title>"
        document.reserveCapacity(12 * Self.megabyte)
        for index in 0..<100_000 {
            document += "<item><title>Episode \(index)</title><guid>g\(index)</guid><enclosure url=\"e\(index).mp3\" type=\"audio/mpeg\"/>"
                + "<itunes:duration>1:00</itunes:duration><description>&lt;p&gt;Notes \(index)&lt;/p&gt;</description></item>"
        }
        document += "</channel></rss>"
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        #expect(cost.peakGrowth < 500 * Self.megabyte)
        let content = try cost.result.get()
        #expect(content.items.count == 100_000)
        #expect(content.items.last?.title == "Episode 99999")
        #expect(content.items.last?.details.notes == [.element("p", attributes: [:], children: [.text("Notes 99999")])])
    }

    @Test(arguments: [1, 2, 3])
    func binaryJunkIsRefused(_ seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let junk = Data((0..<Self.megabyte).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let cost = Self.measure(junk)
        #expect(cost.elapsed < .seconds(5))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        guard case .failure(let error) = cost.result else {
            Issue.record("junk parsed as a feed")
            return
        }
        #expect(error is FeedError)
        #expect(!"\(error)".isEmpty)
    }

    @Test func junkAfterAValidStartEndsWithWhatWasRead() throws {
        var generator = SplitMix64(seed: 9)
        var data = Data("<rss><channel><title>Cut</title><item><title>A</title><enclosure url=\"a.mp3\"/></item>".utf8)
        data.append(contentsOf: (0..<Self.megabyte).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let cost = Self.measure(data)
        #expect(cost.elapsed < .seconds(5))
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
    func anHTMLPageIsNoFeed(_ page: String) {
        let cost = Self.measure(Data(page.utf8))
        #expect(cost.elapsed < .seconds(5))
        guard case .failure(let error) = cost.result, let feedError = error as? FeedError else {
            Issue.record("an HTML page was accepted")
            return
        }
        #expect(feedError == .notAFeed(rootElement: "html"))
        #expect(feedError.description.contains("not a podcast feed"))
    }

    @Test func deepNestingIsBounded() {
        let depth = 100_000
        let document = "<rss><channel><title>Deep</title><item><description>" + String(repeating: "<div>", count: depth)
            + "x" + String(repeating: "</div>", count: depth) + "</description><enclosure url=\"a.mp3\"/></item></channel></rss>"
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        #expect(cost.peakGrowth < 200 * Self.megabyte)
        if case .success(let content) = cost.result {
            #expect(content.title == "Deep")
        }
    }

    @Test func hugeShowNotesStayLinear() throws {
        // 8 MB of notes in one item, every construct the sanitizer knows, repeated.
        let unit = #"<p class="x" style="y">Text &amp; <a href="https://e.example/?a=1&b=2" onclick="z">link</a>"#
            + #"<script>bad()</script><!-- c --><img src="https://e.example/i.png" alt="i"><br></p>"#
        let notes = String(repeating: unit, count: 8 * Self.megabyte / unit.utf8.count)
        let document = "<rss><channel><title>T</title><item><enclosure url=\"a.mp3\"/><description><![CDATA[\(notes)]]></description></item></channel></rss>"
        let cost = Self.measure(Data(document.utf8))
        #expect(cost.elapsed < .seconds(5))
        let item = try #require(try cost.result.get().items.first)
        #expect(item.details.notes.count == 8 * Self.megabyte / unit.utf8.count)
        #expect(ShowNotesTests.violations(item.details.notes).isEmpty)
    }
}

/// A small seeded generator, so the junk is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
