import EarshotCore
import Foundation
import Testing

/// The pure half of directory search: the request each provider wants, its signature, and its
/// answer read into results. Expected digests come from Python's hashlib, not from this code.
@Suite("Directory search: requests, signatures, answers")
struct DirectoryTests {
    @Test("SHA-1 matches the FIPS 180-4 vectors")
    func sha1() {
        #expect(SHA1.hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hex(String(repeating: "a", count: 1_000_000)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "the shared padding still serves SHA-256")
    }

    @Test("Podcast Index: the four headers under a fixed clock")
    func podcastIndexSignature() {
        let credentials = PodcastIndexCredentials(key: "UXKCGDSYGUUEVQJSYDZH", secret: "yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|")
        let headers = Dictionary(uniqueKeysWithValues: credentials.headers(unixTime: 1_609_459_200, userAgent: "Earshot/test"))
        #expect(headers == ["User-Agent": "Earshot/test", "X-Auth-Key": "UXKCGDSYGUUEVQJSYDZH", "X-Auth-Date": "1609459200",
                            "Authorization": "21220ae89cd0885aa85af1deb9b78f6af914e086"])
    }

    @Test("requests: the provider's path, the term percent-encoded, the base as configured")
    func requests() {
        let apple = DirectoryRequest.search(.itunes, base: "http://127.0.0.1:8123/", term: "linux & co/ünï", unixTime: 0, userAgent: "UA")
        #expect(apple.url == "http://127.0.0.1:8123/search?media=podcast&entity=podcast&limit=30&term=linux%20%26%20co%2F%C3%BCn%C3%AF")
        #expect(apple.headers == ["User-Agent": "UA"])
        let index = DirectoryRequest.search(.podcastindex, base: "https://api.podcastindex.org", term: "batman university",
                                            credentials: PodcastIndexCredentials(key: "k", secret: "s"), unixTime: 5, userAgent: "UA")
        #expect(index.url == "https://api.podcastindex.org/api/1.0/search/byterm?max=30&q=batman%20university")
        #expect(index.headers["Authorization"] == SHA1.hex("ks5") && index.headers["X-Auth-Date"] == "5")
        #expect(DirectoryProvider.itunes.defaultBaseURL == "https://itunes.apple.com")
    }

    /// An iTunes Search API answer in its documented shape (fields as Apple sends them).
    static let iTunesAnswer = #"""
    {"resultCount": 3, "results": [
      {"wrapperType": "track", "kind": "podcast", "collectionId": 1, "trackId": 1, "artistName": "Jupiter Broadcasting",
       "collectionName": "LINUX Unplugged", "trackName": "LINUX Unplugged", "feedUrl": "https://feeds.fireside.fm/linuxunplugged/rss",
       "artworkUrl100": "https://is1-ssl.mzstatic.com/a/100x100bb.jpg", "artworkUrl600": "https://is1-ssl.mzstatic.com/a/600x600bb.jpg",
       "trackCount": 300, "primaryGenreName": "Technology", "genreIds": ["1318", "26"], "genres": ["Technology", "Podcasts"]},
      {"wrapperType": "track", "kind": "podcast", "collectionName": "No feed here", "artistName": "Someone"},
      {"wrapperType": "track", "kind": "podcast", "collectionName": "Odd artwork", "artistName": "X",
       "feedUrl": "http://example.org/feed.xml", "artworkUrl600": "javascript:alert(1)", "genres": ["Comedy"]}
    ]}
    """#

    /// A Podcast Index `search/byterm` answer in its documented shape.
    static let podcastIndexAnswer = #"""
    {"status": "true", "feeds": [
      {"id": 75075, "title": "Batman University", "url": "https://feeds.theincomparable.com/batmanuniversity",
       "originalUrl": "https://feeds.theincomparable.com/batmanuniversity", "link": "https://www.theincomparable.com/batmanuniversity/",
       "description": "Batman University is a seasonal podcast.", "author": "Tony Sindelar", "ownerName": "The Incomparable",
       "image": "https://www.theincomparable.com/imgs/logos/logo-batmanuniversity-3x.jpg", "artwork": "", "episodeCount": 19,
       "categories": {"104": "Tv", "105": "Film", "107": "Reviews"}},
      {"id": 2, "title": "No categories", "url": "http://example.org/rss", "author": null, "ownerName": "Owner",
       "image": "", "artwork": "https://example.org/a.png", "categories": null}
    ], "count": 2, "query": "batman university", "description": "Found matching feeds."}
    """#

    @Test("answers: iTunes and Podcast Index read into the same results; nothing unsubscribable kept")
    func answers() throws {
        let apple = try DirectoryAnswer.results(.itunes, Data(Self.iTunesAnswer.utf8))
        #expect(apple == [
            DirectoryResult(title: "LINUX Unplugged", author: "Jupiter Broadcasting", feedUrl: "https://feeds.fireside.fm/linuxunplugged/rss",
                            artwork: "https://is1-ssl.mzstatic.com/a/600x600bb.jpg", episodeCount: 300, genres: ["Technology"]),
            DirectoryResult(title: "Odd artwork", author: "X", feedUrl: "http://example.org/feed.xml", genres: ["Comedy"]),
        ])
        let index = try DirectoryAnswer.results(.podcastindex, Data(Self.podcastIndexAnswer.utf8))
        #expect(index == [
            DirectoryResult(title: "Batman University", author: "Tony Sindelar", feedUrl: "https://feeds.theincomparable.com/batmanuniversity",
                            artwork: "https://www.theincomparable.com/imgs/logos/logo-batmanuniversity-3x.jpg", episodeCount: 19,
                            genres: ["Tv", "Film", "Reviews"]),
            DirectoryResult(title: "No categories", author: "Owner", feedUrl: "http://example.org/rss", artwork: "https://example.org/a.png"),
        ])
        for junk in ["", "<html>", #"{"results": 3}"#, #"{"feeds": [{"title": 5}]}"#] {
            #expect(throws: DirectoryAnswer.Unreadable.self) { _ = try DirectoryAnswer.results(.podcastindex, Data(junk.utf8)) }
        }
        #expect(throws: DirectoryAnswer.Unreadable(provider: .itunes)) { _ = try DirectoryAnswer.results(.itunes, Data("[]".utf8)) }
    }
}
