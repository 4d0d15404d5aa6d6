import FoundationEssentials

/// The chapters of one episode from its three sources, and the one list every client sees.
///
/// Precedence: the Podcasting 2.0 JSON chapters file (`podcast:chapters`), else the feed's Podlove
/// Simple Chapters (`psc:chapters`), else the chapters inside the media file (mpv's `chapter-list`:
/// ID3 CHAP, MP4, Vorbis comments). The first source with a chapter wins whole; lists are never
/// interleaved, because two lists rarely agree on boundaries and a mix would show both.
/// - JSON first: the publisher can correct it after release, and it carries images and links.
/// - PSC next: written by the publisher for this feed, with links and images, but fixed per item.
/// - The file last: fixed when the audio was encoded, and mpv reports titles only.
///
/// Whatever wins goes through `ChapterMerge.clean`, so every list a client sees is sorted, has
/// non-negative finite starts, one chapter per start, readable titles and only http(s) addresses.
public struct ChapterMerge: Sendable, Equatable {
    /// Where the merged list came from.
    public enum Source: String, Sendable, Equatable {
        case json, feed, file
    }

    /// Podcasting 2.0 chapters once fetched (or read from the cache) and validated; nil until then,
    /// and for good when the episode names none or the fetch failed.
    public var json: [Chapter]?
    /// Podlove Simple Chapters from the feed (`EpisodeDetails.chapters`).
    public var feed: [FeedChapter]
    /// What mpv read from the file.
    public var file: [Chapter]

    public init(json: [Chapter]? = nil, feed: [FeedChapter] = [], file: [Chapter] = []) {
        self.json = json; self.feed = feed; self.file = file
    }

    /// The source the list comes from, nil when no source has a chapter.
    public var source: Source? { resolved.source }

    /// The list clients see (cleaned; empty when no source has a chapter).
    public var chapters: [Chapter] { resolved.chapters }

    private var resolved: (source: Source?, chapters: [Chapter]) {
        if let json {
            let cleaned = Self.clean(json)
            if !cleaned.isEmpty { return (.json, cleaned) }
        }
        let fromFeed = Self.clean(feed.map { Chapter(title: $0.title, start: $0.start, img: $0.image, url: $0.href) })
        if !fromFeed.isEmpty { return (.feed, fromFeed) }
        let fromFile = Self.clean(file)
        if !fromFile.isEmpty { return (.file, fromFile) }
        return (nil, [])
    }
}
