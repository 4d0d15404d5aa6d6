import FoundationEssentials

/// The listener's download preferences: kept in the library (settings row `downloads.settings`),
/// changed with `download.settings` and `download.auto`, sent in every `downloads` message.
public struct DownloadSettings: Codable, Sendable, Equatable {
    /// Downloads running at once.
    public var concurrency: Int
    /// Downloads of played episodes are deleted this many days after they were played; nil: kept.
    public var deletePlayedAfterDays: Int?
    /// Per podcast: keep its newest N episodes downloaded (auto-download); absent: off.
    public var autoDownload: [Int64: Int]

    public static let defaultConcurrency = 2
    public static let concurrencyRange = 1...6
    public static let daysRange = 1...365
    public static let autoDownloadRange = 1...20

    public init(concurrency: Int = defaultConcurrency, deletePlayedAfterDays: Int? = nil, autoDownload: [Int64: Int] = [:]) {
        self.concurrency = concurrency
        self.deletePlayedAfterDays = deletePlayedAfterDays
        self.autoDownload = autoDownload
    }

    enum CodingKeys: String, CodingKey { case concurrency, deletePlayedAfterDays, autoDownload }

    /// A stored document with a key missing or out of range keeps that key's default: an old or
    /// hand-edited row never stops Earshot from starting.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let concurrency = (try? c.decodeIfPresent(Int.self, forKey: .concurrency)) ?? nil
        self.concurrency = concurrency.flatMap { Self.concurrencyRange.contains($0) ? $0 : nil } ?? Self.defaultConcurrency
        let days = (try? c.decodeIfPresent(Int.self, forKey: .deletePlayedAfterDays)) ?? nil
        deletePlayedAfterDays = days.flatMap { Self.daysRange.contains($0) ? $0 : nil }
        // JSON keys are strings: podcast ids written out. Entries that make no sense are dropped.
        let auto = ((try? c.decodeIfPresent([String: Int].self, forKey: .autoDownload)) ?? nil) ?? [:]
        autoDownload = [:]
        for (key, count) in auto {
            if let id = Int64(key), id > 0, Self.autoDownloadRange.contains(count) { autoDownload[id] = count }
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(concurrency, forKey: .concurrency)
        try c.encode(deletePlayedAfterDays, forKey: .deletePlayedAfterDays) // explicit null: off
        try c.encode(Dictionary(uniqueKeysWithValues: autoDownload.map { (String($0.key), $0.value) }), forKey: .autoDownload)
    }

    /// What one `download.settings` command changes; keys left out stay.
    public struct Change: Sendable, Equatable {
        public var concurrency: Int?
        /// nil: unchanged; `.some(nil)`: off.
        public var deletePlayedAfterDays: Int??

        public init(concurrency: Int? = nil, deletePlayedAfterDays: Int?? = nil) {
            self.concurrency = concurrency
            self.deletePlayedAfterDays = deletePlayedAfterDays
        }
    }

    /// These settings with `change` applied; a value out of range is an error and changes nothing.
    public func applying(_ change: Change) throws(CommandError) -> DownloadSettings {
        var next = self
        if let concurrency = change.concurrency {
            guard Self.concurrencyRange.contains(concurrency) else {
                throw CommandError("concurrency must be \(Self.concurrencyRange.lowerBound) to \(Self.concurrencyRange.upperBound)")
            }
            next.concurrency = concurrency
        }
        if let days = change.deletePlayedAfterDays {
            if let days, !Self.daysRange.contains(days) {
                throw CommandError("deletePlayedAfterDays must be \(Self.daysRange.lowerBound) to \(Self.daysRange.upperBound), or null (off)")
            }
            next.deletePlayedAfterDays = days
        }
        return next
    }

    /// These settings with a podcast's auto-download set to its newest `count` episodes (nil: off).
    public func settingAutoDownload(podcast: Int64, count: Int?) throws(CommandError) -> DownloadSettings {
        var next = self
        if let count {
            guard Self.autoDownloadRange.contains(count) else {
                throw CommandError("\"newest\" must be \(Self.autoDownloadRange.lowerBound) to \(Self.autoDownloadRange.upperBound), or null (off)")
            }
            next.autoDownload[podcast] = count
        } else {
            next.autoDownload[podcast] = nil
        }
        return next
    }
}
