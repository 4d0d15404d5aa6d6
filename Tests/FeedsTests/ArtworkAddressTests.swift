import EarshotCore
import Foundation
import Testing
@testable import Feeds

/// Artwork reaches the first paint as `<img src>`: only web addresses may get there.
@Suite struct ArtworkAddressTests {
    @Test("javascript:, data: and vbscript: artwork is dropped; http(s) and relative artwork is kept")
    func artwork() throws {
        let feed = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <itunes:image href="javascript:window.__pwned='channel'"/>
            <item><title>a</title><guid>a</guid><enclosure url="a.mp3" type="audio/mpeg"/>
              <itunes:image href="  JaVaScRiPt:alert(1)"/></item>
            <item><title>b</title><guid>b</guid><enclosure url="b.mp3" type="audio/mpeg"/>
              <itunes:image href="data:image/svg+xml,&lt;svg onload=alert(1)&gt;"/></item>
            <item><title>c</title><guid>c</guid><enclosure url="c.mp3" type="audio/mpeg"/>
              <itunes:image href="covers/c.jpg"/></item>
            </channel></rss>
            """
        let content = try FeedParser.parse(Data(feed.utf8), baseURL: URL(string: "https://example.org/feed.xml")!)
        #expect(content.artworkURL == nil)
        let art = Dictionary(uniqueKeysWithValues: content.items.map { ($0.guid, $0.artworkURL) })
        #expect(art["a"] == .some(nil))
        #expect(art["b"] == .some(nil))
        #expect(art["c"] == .some("https://example.org/covers/c.jpg"))
        #expect(FeedValues.imageAddress("vbscript:x", base: URL(string: "http://h/f")!) == nil)
        #expect(FeedValues.imageAddress("file:///etc/passwd", base: URL(string: "http://h/f")!) == nil)
        #expect(FeedValues.imageAddress("file:///d/a.jpg", base: URL(fileURLWithPath: "/d/f.xml")) == "file:///d/a.jpg")
    }
}
