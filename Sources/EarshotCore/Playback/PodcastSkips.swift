import FoundationEssentials

/// A podcast's own listening settings (issue 18): its intro (the first `introSkip` seconds), its
/// outro (the last `outroSkip` seconds: the episode counts as finished there), its chapters whose
/// titles hold one of `skipChapters` ("Sponsor", "Ad"), and its own skip silence and leveling
/// (nil: the listener's default). Pure decisions; the engine carries them out.
public struct PodcastSkips: Codable, Sendable, Equatable {
    public var introSkip: Double
    public var outroSkip: Double
    /// Words (or phrases) matched against chapter titles, whole words, any case.
    public var skipChapters: [String]
    /// This podcast's skip silence, nil for the default (`PlaybackSettings.skipSilence`).
    public var skipSilence: SilenceSkipping?
    /// This podcast's leveling, nil for the default (`PlaybackSettings.leveling`).
    public var leveling: Leveling?

    /// Intro and outro a listener may set: up to ten minutes each.
    public static let secondsRange: ClosedRange<Double> = 0...600
    public static let maximumWords = 20
    public static let maximumWordLength = 40
    /// Intro and outro skips leave at least this much of an episode, or they do not act (a short
    /// trailer shorter than the podcast's intro is played whole).
    public static let minimumLeft: Double = 10

    public init(introSkip: Double = 0, outroSkip: Double = 0, skipChapters: [String] = [],
                skipSilence: SilenceSkipping? = nil, leveling: Leveling? = nil) {
        self.introSkip = introSkip; self.outroSkip = outroSkip; self.skipChapters = skipChapters
        self.skipSilence = skipSilence; self.leveling = leveling
    }

    /// Nothing of its own: not kept.
    public var isEmpty: Bool {
        introSkip == 0 && outroSkip == 0 && skipChapters.isEmpty && skipSilence == nil && leveling == nil
    }

    /// Whether intro and outro leave enough of an episode of `duration` (unknown: 0, which only
    /// the intro may act on, since the file's length comes with it).
    func leavesEnough(_ duration: Double) -> Bool {
        duration <= 0 || duration - introSkip - outroSkip >= Self.minimumLeft
    }

    /// Where an episode that would start at `start` starts: past the intro when it would start
    /// inside it (a fresh episode, or one left in its first seconds), else where it was.
    public func start(from start: Double, duration: Double) -> Double {
        guard introSkip > 0, start < introSkip, leavesEnough(duration) else { return start }
        return introSkip
    }

    /// Whether playing at `position` has reached the outro: the episode is done.
    public func reachedOutro(position: Double, duration: Double) -> Bool {
        guard outroSkip > 0, duration > 0, leavesEnough(duration) else { return false }
        return position >= duration - outroSkip
    }

    /// Whether a chapter titled `title` is skipped: one of the words is a whole word (or a run
    /// of whole words) of the title, in any case. "Ad" skips "Ad break", not "Adventures".
    public func skipsChapter(titled title: String) -> Bool {
        let words = Self.words(title)
        guard !words.isEmpty else { return false }
        for entry in skipChapters {
            let wanted = Self.words(entry)
            guard !wanted.isEmpty, wanted.count <= words.count else { continue }
            for start in 0...(words.count - wanted.count) where Array(words[start..<start + wanted.count]) == wanted {
                return true
            }
        }
        return false
    }

    /// Where playing goes from chapter `index` when it is skipped: the start of the next chapter
    /// that is not skipped, or nil when the rest of the episode is skipped (it is done).
    public func skipTarget(from index: Int, in chapters: [Chapter]) -> Double? {
        var next = index + 1
        while next < chapters.count, skipsChapter(titled: chapters[next].title) { next += 1 }
        return next < chapters.count ? chapters[next].start : nil
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// What one `podcast.settings` command changes: any of the keys, the others stay.
    public struct Change: Sendable, Equatable {
        public var introSkip: Double?
        public var outroSkip: Double?
        public var skipChapters: [String]?
        /// `.some(nil)`: back to the default.
        public var skipSilence: SilenceSkipping??
        public var leveling: Leveling??

        public init(introSkip: Double? = nil, outroSkip: Double? = nil, skipChapters: [String]? = nil,
                    skipSilence: SilenceSkipping?? = nil, leveling: Leveling?? = nil) {
            self.introSkip = introSkip; self.outroSkip = outroSkip; self.skipChapters = skipChapters
            self.skipSilence = skipSilence; self.leveling = leveling
        }
    }

    /// These skips with `change` applied; a value out of range is an error and changes nothing.
    /// Words are trimmed, empty ones dropped, repeats (in any case) kept once.
    public func applying(_ change: Change) throws(CommandError) -> PodcastSkips {
        var next = self
        for (key, value) in [("introSkip", change.introSkip), ("outroSkip", change.outroSkip)] {
            guard let value else { continue }
            guard value.isFinite, Self.secondsRange.contains(value) else {
                throw CommandError("\(key) must be between 0 and \(Int(Self.secondsRange.upperBound)) seconds")
            }
            if key == "introSkip" { next.introSkip = value.rounded() } else { next.outroSkip = value.rounded() }
        }
        if let words = change.skipChapters {
            var kept: [String] = []
            for word in words {
                let trimmed = String(word.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
                guard !trimmed.isEmpty else { continue }
                guard trimmed.count <= Self.maximumWordLength else {
                    throw CommandError("a chapter word is at most \(Self.maximumWordLength) characters")
                }
                guard !Self.words(trimmed).isEmpty else { throw CommandError("\"\(trimmed)\" has no letters or digits to match") }
                if !kept.contains(where: { $0.lowercased() == trimmed.lowercased() }) { kept.append(trimmed) }
            }
            guard kept.count <= Self.maximumWords else { throw CommandError("at most \(Self.maximumWords) chapter words") }
            next.skipChapters = kept
        }
        if let skipSilence = change.skipSilence { next.skipSilence = skipSilence }
        if let leveling = change.leveling { next.leveling = leveling }
        return next
    }

    enum CodingKeys: String, CodingKey { case introSkip, outroSkip, skipChapters, skipSilence, leveling }

    /// A stored entry with a key missing or out of range keeps that key's default.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        introSkip = c.tolerantNumber(.introSkip, in: Self.secondsRange, default: 0)
        outroSkip = c.tolerantNumber(.outroSkip, in: Self.secondsRange, default: 0)
        let words = ((try? c.decodeIfPresent([String].self, forKey: .skipChapters)) ?? nil) ?? []
        skipChapters = Array(words.filter { !Self.words($0).isEmpty }.prefix(Self.maximumWords))
        skipSilence = (try? c.decodeIfPresent(SilenceSkipping.self, forKey: .skipSilence)) ?? nil
        leveling = (try? c.decodeIfPresent(Leveling.self, forKey: .leveling)) ?? nil
    }
}

/// What was skipped last, for a few seconds, so every client can say so and offer to undo it
/// (`state.skipped`).
public struct SkipNotice: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case intro, outro, chapter }
    public var kind: Kind
    public var episode: Int64
    /// Where playing was (the undo goes back there) and where it went (the outro: the end).
    public var from: Double
    public var to: Double
    /// The chapter's title, for a chapter skip.
    public var title: String?

    public init(kind: Kind, episode: Int64, from: Double, to: Double, title: String? = nil) {
        self.kind = kind; self.episode = episode; self.from = from; self.to = to; self.title = title
    }

    /// How long clients show it.
    public static let shownFor: Double = 5
}
