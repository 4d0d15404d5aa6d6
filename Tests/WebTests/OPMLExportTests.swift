import EarshotCore
import Feeds
import Foundation
import Library
import Mustache
import TestSupport
import Testing
@testable import Web

/// The OPML export, rendered from the repository's own `Templates/opml.mustache`, read back by Earshot's
/// parser and by `xmllint`.
@Suite struct OPMLExportTests {
    static let templates: MustacheLibrary = {
        try! MustacheLibrary(directory: ServerHarness.repository.appendingPathComponent("Templates"))
    }()

    /// Runs `xmllint --noout --nonet` on `text`; nil when xmllint is not installed, else its complaints ("" = well-formed).
    static func xmllint(_ text: String) async throws -> String? {
        let tool = URL(fileURLWithPath: "/usr/bin/xmllint")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("export.opml")
        try Data(text.utf8).write(to: file)
        return try await offThePool {
            let process = Process()
            process.executableURL = tool
            process.arguments = ["--noout", "--nonet", file.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return process.terminationStatus == 0 ? complaint : "exit \(process.terminationStatus): \(complaint)"
        }
    }

    static let hostile: [Podcast] = [
        Podcast(id: 1, feedURL: "https://example.com/feed?a=1&b=<2>&c=\"3\"&d='4'", title: "Tom & Jerry <script>alert(\"x\")</script>",
                link: "https://example.com/?x=1&y=2"),
        Podcast(id: 2, feedURL: "http://example.org/rss", title: "It's \"quoted\" ]]> --> <!-- 🎧🇩🇪 Ünïcödé 机核网"),
        Podcast(id: 3, feedURL: "https://control.example/rss", title: "Bell\u{7}Null\u{0}Tab\tNew\nline\u{FFFE}end", link: ""),
        Podcast(id: 4, feedURL: "https://untitled.example/rss", title: "   "),
        Podcast(id: 5, feedURL: Subscriptions.demoFeedPath, title: "The demo", link: "/demo/"),
    ]

    @Test("hostile titles and URLs: well-formed XML that reads back to the same feeds")
    func hostileTitles() async throws {
        let date = Date(timeIntervalSince1970: 1_773_133_200)  // Tue, 10 Mar 2026 09:00:00 GMT
        let text = try OPMLExport.render(Self.hostile, templates: Self.templates, date: date)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
        #expect(text.contains("<opml version=\"2.0\">"))
        #expect(text.contains("<dateCreated>Tue, 10 Mar 2026 09:00:00 GMT</dateCreated>"))
        #expect(FeedValues.date("Tue, 10 Mar 2026 09:00:00 GMT") == date)
        #expect(!text.contains("<script>"))
        let lint = try await Self.xmllint(text)
        #expect(lint == nil || lint == "", "xmllint: \(lint ?? "")")
        if lint == nil { print("xmllint is not installed: checked with Earshot's parser only") }

        let document = try OPMLParser.parse(Data(text.utf8))
        #expect(document.title == OPMLExport.title)
        #expect(document.rejected.isEmpty)
        #expect(document.feeds == [
            OPMLFeed(url: "https://example.com/feed?a=1&b=<2>&c=\"3\"&d='4'", title: "Tom & Jerry <script>alert(\"x\")</script>",
                     htmlURL: "https://example.com/?x=1&y=2"),
            OPMLFeed(url: "http://example.org/rss", title: "It's \"quoted\" ]]> --> <!-- 🎧🇩🇪 Ünïcödé 机核网"),
            OPMLFeed(url: "https://control.example/rss", title: "BellNullTab New lineend"),
            OPMLFeed(url: "https://untitled.example/rss", title: "https://untitled.example/rss"),
        ], "the demo feed (a path on this server) is left out")

    }

    @Test("every outline has text, title, type=rss and xmlUrl; htmlUrl only when known")
    func outlineShape() throws {
        let text = try OPMLExport.render(Array(Self.hostile.prefix(4)), templates: Self.templates)
        let outlines = text.split(separator: "\n").filter { $0.contains("<outline") }
        #expect(outlines.count == 4)
        for outline in outlines {
            for attribute in ["type=\"rss\"", " text=\"", " title=\"", " xmlUrl=\""] {
                #expect(outline.contains(attribute), "\(outline)")
            }
        }
        #expect(outlines.filter { $0.contains("htmlUrl=") }.count == 1)
    }

    @Test("round trip of a real export: export → parse gives the same URLs and titles")
    func roundTrip() throws {
        let folder = ServerHarness.repository.deletingLastPathComponent().appendingPathComponent("shared/conformance/opml")
        for name in ["antennapod-export.opml", "subscriptions-audio-2015.opml", "overcast-export-singleline-cjk.opml"] {
            let original = try OPMLParser.parse(Data(contentsOf: folder.appendingPathComponent(name)))
            let podcasts = original.feeds.enumerated().map { index, feed in
                Podcast(id: Int64(index), feedURL: feed.url, title: feed.title ?? feed.url, link: feed.htmlURL)
            }
            let again = try OPMLParser.parse(Data(try OPMLExport.render(podcasts, templates: Self.templates).utf8))
            #expect(again.feeds.map(\.url) == original.feeds.map(\.url), "\(name)")
            #expect(again.feeds.map(\.title) == original.feeds.map { $0.title ?? $0.url }, "\(name)")
            #expect(again.feeds.map(\.htmlURL) == original.feeds.map(\.htmlURL), "\(name)")
        }
    }

    @Test("an empty library exports a valid, empty list")
    func empty() async throws {
        let text = try OPMLExport.render([], templates: Self.templates)
        let document = try OPMLParser.parse(Data(text.utf8))
        #expect(document.feeds.isEmpty)
        let lint = try await Self.xmllint(text)
        #expect(lint == nil || lint == "", "xmllint: \(lint ?? "")")
    }
}
