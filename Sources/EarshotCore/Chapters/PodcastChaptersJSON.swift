import FoundationEssentials

/// A Podcasting 2.0 JSON chapters file (the `podcast:chapters` element's target,
/// podcast-namespace `chapters/jsonChapters.md`), validated: whatever a server sends, decoding
/// either refuses the file with a reason or yields chapters that are safe to show.
///
/// The file must be a JSON object with a string `version` of major version 1 and an array
/// `chapters`. Each chapter needs a finite number `startTime` (negative is clamped to 0);
/// a chapter of any other shape is skipped, not fatal. `title` is used when it is a string,
/// `img` and `url` when they are absolute http(s) addresses, `toc` when it is a boolean (`false`
/// keeps the chapter out of the list: such chapters only change the artwork mid-chapter),
/// `endTime` when it is a number after `startTime`. Other fields are ignored.
public struct PodcastChaptersJSON: Sendable, Equatable {
    /// One chapter as the file wrote it, once validated.
    public struct Entry: Sendable, Equatable {
        public var startTime: Double
        public var title: String?
        public var img: String?
        public var url: String?
        /// False: not part of the table of contents.
        public var toc: Bool
        public var endTime: Double?
    }

    /// Why a file was refused.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Bigger files are refused (and not downloaded past this): a chapters file for a
    /// three-hour show with a thousand chapters is under 300 KB.
    public static let maximumBytes = 1 << 20

    public var version: String
    /// The chapters that validated, in the file's order.
    public var entries: [Entry]

    /// Validates `data` (UTF-8 JSON). Throws a `Refusal` saying why it is not a chapters file.
    public init(data: Data) throws(Refusal) {
        guard data.count <= Self.maximumBytes else { throw Refusal("larger than \(Self.maximumBytes) bytes") }
        let decoded: JSONValue
        do { decoded = try JSONDecoder().decode(JSONValue.self, from: data) } catch { throw Refusal("not JSON") }
        guard case .object(let root) = decoded else { throw Refusal("not a JSON object") }
        guard let version = root["version"]?.string else { throw Refusal("no \"version\" string") }
        guard version == "1" || version.hasPrefix("1.") else { throw Refusal("unsupported version \"\(version.prefix(20))\"") }
        guard case .array(let list)? = root["chapters"] else { throw Refusal("no \"chapters\" array") }
        self.version = version
        entries = list.compactMap(Self.entry)
    }

    /// The chapters for the list (`toc: false` left out), cleaned by `ChapterMerge.clean`.
    public var chapters: [Chapter] {
        ChapterMerge.clean(entries.filter(\.toc).map { Chapter(title: $0.title ?? "", start: $0.startTime, img: $0.img, url: $0.url) })
    }

    private static func entry(_ value: JSONValue) -> Entry? {
        guard case .object(let fields) = value, let start = fields["startTime"]?.number, start.isFinite else { return nil }
        let startTime = max(0, start)
        let end = fields["endTime"]?.number.flatMap { $0.isFinite && $0 > startTime ? $0 : nil }
        return Entry(startTime: startTime, title: fields["title"]?.string,
                     img: ChapterMerge.webAddress(fields["img"]?.string), url: ChapterMerge.webAddress(fields["url"]?.string),
                     toc: fields["toc"]?.bool ?? true, endTime: end)
    }
}
