import Dispatch
import EarshotCore
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Earshot's reading of a feed in gPodder podcastparser's JSON schema (same keys, seconds, Unix times),
/// so the two can be diffed on any feed (`earshot parse --json`). Earshot's own model rides along under
/// an `"earshot"` key, on the podcast and on each episode.
///
/// For podcastparser's exact view, parse with `keepingItemsWithoutEnclosure` and `keepingSourceText`
/// (it keeps items without media, and its guids, titles and descriptions are the feed's raw ones); the
/// document then follows its rules: the `description` is the plain-text one as written (else its text
/// conversion of the HTML), a guid marked as a link is resolved against the feed URL, an item without a
/// guid is identified by its link or its only enclosure and one without a title is named after its only
/// enclosure (others are left out), episodes are sorted by date, newest first (oldest first for
/// `itunes:type` serial), then cut to `maxEpisodes`.
///
/// Where the two readings differ on purpose, the model's value is given: Earshot prefers `itunes:image`
/// for the cover, keeps the first of repeated elements, resolves relative `new-feed-url`s, reads
/// `podcast:episode`/`podcast:season` when iTunes gives none, and lowercases `itunes:type` and the
/// episode type. `itunes_keywords` are split on every comma.
public enum PodcastparserJSON {
    /// Parses a feed as podcastparser would be asked to (items without media kept, raw values kept) and
    /// gives its document; the title falls back to the URL's file name without extension, as there.
    /// Throws `FeedError`.
    public static func document(parsing data: Data, url: URL, maxEpisodes: Int? = nil) throws -> JSONValue {
        let content = try FeedParser.parse(data, baseURL: url, keepingItemsWithoutEnclosure: true, keepingSourceText: true)
        return document(for: content, fallbackTitle: Python.fileNameWithoutExtension(url.path), maxEpisodes: maxEpisodes)
    }

    /// The document for a parsed feed (see the type's summary for the options it wants).
    public static func document(for content: FeedContent, fallbackTitle: String, maxEpisodes: Int? = nil) -> JSONValue {
        var podcast = podcastFields(content, fallbackTitle: fallbackTitle)
        var left = maxEpisodes.flatMap { $0 > 0 ? $0 : nil } ?? Int.max
        podcast["episodes"] = .array(episodeOrder(content).compactMap { index in
            guard left > 0, let json = episode(content.items[index])?.json else { return nil }
            left -= 1
            return json
        })
        return .object(podcast)
    }

    /// The same document as JSON text (keys sorted, `pretty`: JSONEncoder's layout), written episode by
    /// episode: a 60,000-episode feed's document is never held whole (`earshot parse --json`).
    public static func jsonBytes(parsing data: Data, url: URL, maxEpisodes: Int? = nil, pretty: Bool = true) throws -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(data.count * 4)
        try writeJSON(parsing: data, url: url, maxEpisodes: maxEpisodes, pretty: pretty) { text += $0; return true }
        return text
    }

    /// Episodes per block of `writeJSON`'s parallel writing.
    static let blockSize = 1_000

    /// `jsonBytes`, handed to `output` part by part as it is written (false from `output` stops it;
    /// then this returns false). Without `maxEpisodes`, the episodes are written in blocks on every
    /// core: each episode's text depends on its item alone.
    @discardableResult
    public static func writeJSON(parsing data: Data, url: URL, maxEpisodes: Int? = nil, pretty: Bool = true,
                                 to output: ([UInt8]) -> Bool) throws -> Bool {
        try writeJSON(parsing: data, url: url, maxEpisodes: maxEpisodes, pretty: pretty, blockSize: blockSize, to: output)
    }

    static func writeJSON(parsing data: Data, url: URL, maxEpisodes: Int?, pretty: Bool, blockSize: Int,
                          to output: ([UInt8]) -> Bool) throws -> Bool {
        let content = try FeedParser.parse(data, baseURL: url, keepingItemsWithoutEnclosure: true, keepingSourceText: true)
        let podcast = podcastFields(content, fallbackTitle: Python.fileNameWithoutExtension(url.path))
        let keys = (Array(podcast.keys) + ["episodes"]).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var writer = JSONTextWriter(pretty: pretty, sortedKeys: true)
        writer.reserve(1 << 16)
        var open = true
        writer.writeObject(keys: keys, depth: 0) { key, writer in
            guard key == "episodes" else { writer.write(podcast[key]!, depth: 1); return }
            let order = episodeOrder(content)
            if let maxEpisodes, maxEpisodes > 0 {
                var left = maxEpisodes
                writer.writeArray(order, depth: 1) { index, writer in
                    guard left > 0, let json = episode(content.items[index])?.json else { return false }
                    left -= 1
                    writer.write(json, depth: 2)
                    return true
                }
                return
            }
            // The text so far goes first; then the array's elements, block by block.
            writer.openArray()
            open = open && output(writer.take())
            var written = 0
            let blocks = EpisodeBlocks(content: content, order: order, pretty: pretty, blockSize: blockSize)
            for index in 0..<blocks.count where open {
                let text = blocks.take(index)
                guard !text.bytes.isEmpty else { continue }
                // Each element of a block starts with its separator: the feed's first drops the comma.
                open = output(written == 0 ? Array(text.bytes.dropFirst()) : text.bytes)
                written += text.count
            }
            blocks.finish()
            writer.closeArray(depth: 1, empty: written == 0)
        }
        return open && output(writer.take())
    }

    /// The items' indices in podcastparser's order: by date, newest first (oldest first for
    /// `itunes:type` serial), stable as Python's sort (equal dates keep the document's order).
    static func episodeOrder(_ content: FeedContent) -> [Int] {
        let published = content.items.map { $0.published.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0 }
        let oldestFirst = content.details.type == "serial"
        return content.items.indices.sorted { a, b in
            published[a] != published[b] ? (oldestFirst ? published[a] < published[b] : published[a] > published[b]) : a < b
        }
    }

    /// The podcast's own keys (everything but `episodes`).
    static func podcastFields(_ content: FeedContent, fallbackTitle: String) -> [String: JSONValue] {
        var podcast: [String: JSONValue] = [
            "title": .string(content.title.isEmpty ? fallbackTitle : content.title),
        ]
        let details = content.details
        if let written = content.asWritten {
            if let description = written.description { podcast["description"] = .string(Python.squashKeepingLines(description)) }
            if let author = written.author { podcast["itunes_author"] = .string(author) }
        } else {
            if !content.summary.isEmpty { podcast["description"] = .string(content.summary) }
            if !content.author.isEmpty { podcast["itunes_author"] = .string(content.author) }
        }
        podcast["link"] = content.link.map(JSONValue.string)
        podcast["cover_url"] = content.artworkURL.map(JSONValue.string)
        podcast["type"] = details.type.map(JSONValue.string)
        podcast["generator"] = details.generator.map(JSONValue.string)
        if !details.language.isEmpty { podcast["language"] = .string(details.language) }
        var owner: [String: JSONValue] = [:]
        if !details.ownerName.isEmpty { owner["name"] = .string(details.ownerName) }
        if !details.ownerEmail.isEmpty { owner["email"] = .string(details.ownerEmail) }
        if !owner.isEmpty { podcast["itunes_owner"] = .object(owner) }
        if !details.categories.isEmpty {
            podcast["itunes_categories"] = .array(details.categories.map { .array($0.map(JSONValue.string)) })
        }
        if !details.keywords.isEmpty { podcast["itunes_keywords"] = .array(details.keywords.map(JSONValue.string)) }
        podcast["explicit"] = details.explicit.map(JSONValue.bool)
        podcast["new_url"] = content.newFeedURL.map(JSONValue.string)
        podcast["payment_url"] = details.paymentURL.map(JSONValue.string)
        podcast["funding_url"] = details.funding.last.map { .string($0.url) }
        podcast["import_prohibited"] = details.locked.map(JSONValue.bool)
        podcast["paged_feed_first"] = details.pageFirstURL.map(JSONValue.string)
        podcast["paged_feed_next"] = details.pageNextURL.map(JSONValue.string)

        podcast["earshot"] = extras(of: content)
        return podcast
    }

    /// What podcastparser calls an episode: its guid, title and description, or nil for an item it
    /// leaves out (see the type's summary).
    static func identity(_ item: FeedItem) -> (guid: String, title: String, description: String)? {
        var guid = item.guid
        var title = item.title
        var description = item.summary
        if let written = item.asWritten {
            let urls = item.details.enclosures.map(\.url)
            if let writtenGUID = written.guid {
                guid = written.permalink ?? writtenGUID
            } else if let link = item.link, !link.isEmpty {
                guid = link
            } else if Set(urls).count == 1 {
                guid = urls[0]
            } else {
                return nil
            }
            if let written = written.title {
                title = Python.squash(written)
            } else if urls.count == 1 {
                title = Python.fileNameWithoutExtension(urls[0])
            } else {
                return nil
            }
            description = written.description.map(Python.squashKeepingLines) ?? ""
            if description.isEmpty, let html = item.rawHTML { description = Python.removeHTMLTags(html) }
        }
        return (guid, title, description)
    }

    /// One episode as podcastparser gives it, or nil for an item it leaves out.
    static func episode(_ item: FeedItem) -> (published: Int, json: JSONValue)? {
        let details = item.details
        guard let (guid, title, description) = identity(item) else { return nil }
        let published = item.published.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        var episode: [String: JSONValue] = [
            "title": .string(title),
            "description": .string(description),
            "published": .number(Double(published)),
            "guid": .string(guid),
            "link": .string(item.link ?? item.asWritten?.permalink ?? ""),
            "total_time": .number(item.duration.rounded(.towardZero)),
            "payment_url": details.paymentURL.map(JSONValue.string) ?? .null,
            "enclosures": .array(details.enclosures.map(enclosure)),
        ]
        episode["description_html"] = item.rawHTML.map(JSONValue.string)
        if !details.subtitle.isEmpty { episode["subtitle"] = .string(details.subtitle) }
        episode["episode_art_url"] = item.artworkURL.map(JSONValue.string)
        episode["type"] = details.type.map(JSONValue.string)
        episode["explicit"] = details.explicit.map(JSONValue.bool)
        episode["season"] = details.season.map { .number(Double($0)) }
        episode["number"] = details.number.map { .number(Double($0)) }
        if !details.author.isEmpty { episode["itunes_author"] = .string(details.author) }
        episode["chapters_json_url"] = details.chaptersURL.map(JSONValue.string)
        episode["transcript_url"] = details.transcripts.last.map { .string($0.url) }
        if !details.persons.isEmpty { episode["persons"] = .array(details.persons.map(person)) }
        if !details.chapters.isEmpty { episode["chapters"] = .array(details.chapters.map(chapter)) }
        episode["earshot"] = extras(of: item)
        return (published, .object(episode))
    }

    static func enclosure(_ enclosure: FeedEnclosure) -> JSONValue {
        .object([
            "url": .string(enclosure.url),
            "file_size": .number(Double(enclosure.length > 0 ? enclosure.length : -1)),
            "mime_type": .string(enclosure.type.contains("/") ? enclosure.type : "application/octet-stream"),
        ])
    }

    /// podcastparser fills in the namespace's defaults (a host, in the cast).
    static func person(_ person: FeedPerson) -> JSONValue {
        .object([
            "name": .string(person.name),
            "role": .string(person.role ?? "host"),
            "group": .string(person.group ?? "cast"),
            "href": person.href.map(JSONValue.string) ?? .null,
            "img": person.img.map(JSONValue.string) ?? .null,
        ])
    }

    static func chapter(_ chapter: FeedChapter) -> JSONValue {
        var json: [String: JSONValue] = [
            "start": .number(chapter.start.rounded(.towardZero)),
            "title": .string(chapter.title),
        ]
        json["href"] = chapter.href.map(JSONValue.string)
        json["image"] = chapter.image.map(JSONValue.string)
        return .object(json)
    }
}

/// A feed's episodes written as JSON text in blocks by a worker per core, while the caller takes the
/// blocks in order (`take`) and hands them on: writing the text overlaps handing it to a slow reader.
/// At most `window` blocks are written ahead of the one taken last, so a reader that stops holds
/// a few megabytes, not the document.
private final class EpisodeBlocks: @unchecked Sendable {
    let count: Int
    private let content: FeedContent
    private let order: [Int]
    private let pretty: Bool
    private let blockSize: Int
    private let ready: [DispatchSemaphore]
    private let window: DispatchSemaphore
    private let workers: Int
    private let running = DispatchGroup()
    /// Each block's text (every element with its leading `,` and line break) and its element count.
    /// A worker fills its block's slot, then signals `ready`; only then does `take` read it.
    private let texts: UnsafeMutableBufferPointer<(bytes: [UInt8], count: Int)>
    private let next = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private var inline = false

    init(content: FeedContent, order: [Int], pretty: Bool, blockSize: Int) {
        self.content = content
        self.order = order
        self.pretty = pretty
        self.blockSize = blockSize
        count = (order.count + blockSize - 1) / blockSize
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        workers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // Every worker may hold a slot it took before a block below it was taken: more slots than
        // workers means the block `take` waits for always gets one.
        // Made empty and then filled: libdispatch traps when a semaphore is freed holding less than
        // it was made with, which a writing stopped early (blocks written, never taken) leaves.
        window = DispatchSemaphore(value: 0)
        for _ in 0..<(2 * workers + 2) { window.signal() }
        texts = .allocate(capacity: count)
        texts.initialize(repeating: ([], 0))
        var started = 0
        for _ in 0..<workers {
            running.enter()
            // Threads of their own: the caller blocks in `take`, and on the system's pool that blocked
            // thread would count against its width (one worker, measured: 20 % slower).
            if WorkerThread.start({ [self] in
                defer { running.leave() }
                work()
            }) {
                started += 1
            } else {
                running.leave()
            }
        }
        // No thread to be had: `take` writes each block itself.
        inline = started == 0
    }

    deinit {
        texts.deinitialize()
        texts.deallocate()
    }

    private func work() {
        while true {
            window.wait()
            let block = next.add(1, ordering: .relaxed).oldValue
            guard block < count, !stopped.load(ordering: .relaxed) else {
                window.signal()
                return
            }
            write(block)
            ready[block].signal()
        }
    }

    /// Writes block `block`'s text into its slot.
    private func write(_ block: Int) {
        var writer = JSONTextWriter(pretty: pretty, sortedKeys: true)
        let range = (block * blockSize)..<min((block + 1) * blockSize, order.count)
        writer.reserve(range.count * 2_560)
        var written = 0
        for position in range {
            let item = content.items[order[position]]
            guard let identity = PodcastparserJSON.identity(item) else { continue }
            writer.elementStart(depth: 2, first: false)
            PodcastparserJSON.writeEpisode(item, identity, into: &writer, depth: 2)
            written += 1
        }
        texts[block] = (writer.take(), written)
    }

    /// Block `index`'s text, once written (blocks are taken in order, each once).
    func take(_ index: Int) -> (bytes: [UInt8], count: Int) {
        if inline { write(index) } else { ready[index].wait() }
        defer { texts[index] = ([], 0) }
        window.signal()
        return texts[index]
    }

    /// Stops the workers (blocks not yet started are not written) and waits for them.
    func finish() {
        stopped.store(true, ordering: .relaxed)
        for _ in 0..<workers { window.signal() }
        running.wait()
    }
}

/// A POSIX thread running one closure (Foundation's `Thread` would pull all of Foundation, and its ICU
/// data, into the parser's binaries).
private enum WorkerThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// False when no thread could be made (nothing runs).
    static func start(_ run: @escaping @Sendable () -> Void) -> Bool {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
