import FoundationEssentials

/// The listener's playback preferences: kept in the library (one settings row), changed with the
/// `settings` and `podcast.speed` commands, sent to every client in each `state`.
public struct PlaybackSettings: Codable, Sendable, Equatable {
    /// Seconds before the end that count as the end: stopping there marks the episode played
    /// (see `ResumePoint.isFinished`, which also caps it at the last tenth of an episode).
    public var playedMargin: Double
    /// Seconds the skip-back button, key and lock-screen control go back.
    public var skipBack: Double
    /// Seconds the skip-forward button, key and lock-screen control go forward.
    public var skipForward: Double
    /// The speed each podcast's episodes start at, by podcast id (podcasts without one start at
    /// the speed last chosen for such podcasts).
    public var podcastSpeeds: [Int64: Double]
    /// Each podcast's own skips (intro, outro, chapters by title), by podcast id; podcasts
    /// without any are not listed.
    public var podcasts: [Int64: PodcastSkips] = [:]
    /// Skip silence for podcasts without their own.
    public var skipSilence: SilenceSkipping = .off
    /// Leveling for podcasts without their own.
    public var leveling: Leveling = .off

    /// Margins a listener may choose: from "only the very end" to the last 10 minutes.
    public static let playedMarginRange: ClosedRange<Double> = 0...600
    /// Skip intervals a listener may choose.
    public static let skipRange: ClosedRange<Double> = 5...300
    public static let defaultSkipBack: Double = 15
    public static let defaultSkipForward: Double = 30

    public init(playedMargin: Double = ResumePoint.defaultFinishedMargin,
                skipBack: Double = defaultSkipBack, skipForward: Double = defaultSkipForward,
                podcastSpeeds: [Int64: Double] = [:]) {
        self.playedMargin = playedMargin
        self.skipBack = skipBack
        self.skipForward = skipForward
        self.podcastSpeeds = podcastSpeeds
    }

    enum CodingKeys: String, CodingKey { case playedMargin, skipBack, skipForward, podcastSpeeds, podcasts, skipSilence, leveling }

    /// A podcast's skips (none when it has none).
    public func skips(for podcast: Int64) -> PodcastSkips { podcasts[podcast] ?? PodcastSkips() }

    /// The filters an episode of `podcast` plays through: its own skip silence and leveling, or
    /// the defaults; `measured`: the episode's loudness, when it was measured (a fixed gain then
    /// levels it).
    public func filters(for podcast: Int64, measured: Loudness? = nil) -> AudioFilterChain {
        let own = skips(for: podcast)
        let leveling = own.leveling ?? self.leveling
        return AudioFilterChain(skipSilence: own.skipSilence ?? skipSilence, leveling: leveling, gain: leveling.gain(for: measured))
    }

    /// A stored document with a key missing or out of range keeps that key's default: an old or
    /// hand-edited row never stops Earshot from starting.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        playedMargin = c.tolerantNumber(.playedMargin, in: Self.playedMarginRange, default: ResumePoint.defaultFinishedMargin)
        skipBack = c.tolerantNumber(.skipBack, in: Self.skipRange, default: Self.defaultSkipBack)
        skipForward = c.tolerantNumber(.skipForward, in: Self.skipRange, default: Self.defaultSkipForward)
        // JSON keys are strings: podcast ids written out. Entries that make no sense are dropped.
        let speeds = ((try? c.decodeIfPresent([String: Double].self, forKey: .podcastSpeeds)) ?? nil) ?? [:]
        podcastSpeeds = [:]
        for (key, rate) in speeds {
            if let id = Int64(key), id > 0, PlaybackSpeed.range.contains(rate) { podcastSpeeds[id] = PlaybackSpeed.snapped(rate) }
        }
        let skips = ((try? c.decodeIfPresent([String: PodcastSkips].self, forKey: .podcasts)) ?? nil) ?? [:]
        for (key, value) in skips {
            if let id = Int64(key), id > 0, !value.isEmpty { podcasts[id] = value }
        }
        skipSilence = ((try? c.decodeIfPresent(SilenceSkipping.self, forKey: .skipSilence)) ?? nil) ?? .off
        leveling = ((try? c.decodeIfPresent(Leveling.self, forKey: .leveling)) ?? nil) ?? .off
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(playedMargin, forKey: .playedMargin)
        try c.encode(skipBack, forKey: .skipBack)
        try c.encode(skipForward, forKey: .skipForward)
        try c.encode(Dictionary(uniqueKeysWithValues: podcastSpeeds.map { (String($0.key), $0.value) }), forKey: .podcastSpeeds)
        try c.encode(Dictionary(uniqueKeysWithValues: podcasts.map { (String($0.key), $0.value) }), forKey: .podcasts)
        try c.encode(skipSilence, forKey: .skipSilence)
        try c.encode(leveling, forKey: .leveling)
    }

    /// What one `settings` command changes: any of the keys, the others stay.
    public struct Change: Sendable, Equatable {
        public var playedMargin: Double?
        public var skipBack: Double?
        public var skipForward: Double?
        public var skipSilence: SilenceSkipping?
        public var leveling: Leveling?

        public init(playedMargin: Double? = nil, skipBack: Double? = nil, skipForward: Double? = nil,
                    skipSilence: SilenceSkipping? = nil, leveling: Leveling? = nil) {
            self.playedMargin = playedMargin; self.skipBack = skipBack; self.skipForward = skipForward
            self.skipSilence = skipSilence; self.leveling = leveling
        }
    }

    /// These settings with `change` applied; a value out of range is an error and changes nothing.
    public func applying(_ change: Change) throws(CommandError) -> PlaybackSettings {
        var next = self
        if let margin = change.playedMargin {
            guard Self.playedMarginRange.contains(margin) else {
                throw CommandError("playedMargin must be between \(Int(Self.playedMarginRange.lowerBound)) and \(Int(Self.playedMarginRange.upperBound)) seconds")
            }
            next.playedMargin = margin
        }
        for (key, value) in [("skipBack", change.skipBack), ("skipForward", change.skipForward)] {
            guard let value else { continue }
            guard Self.skipRange.contains(value) else {
                throw CommandError("\(key) must be between \(Int(Self.skipRange.lowerBound)) and \(Int(Self.skipRange.upperBound)) seconds")
            }
            if key == "skipBack" { next.skipBack = value } else { next.skipForward = value }
        }
        if let skipSilence = change.skipSilence { next.skipSilence = skipSilence }
        if let leveling = change.leveling { next.leveling = leveling }
        return next
    }
}

extension KeyedDecodingContainer {
    /// A stored number, or `fallback` when it is missing, not a number or out of `range`: an old
    /// or hand-edited settings row never stops Earshot from starting.
    func tolerantNumber(_ key: Key, in range: ClosedRange<Double>, default fallback: Double) -> Double {
        let found = (try? decodeIfPresent(Double.self, forKey: key)) ?? nil
        return found.flatMap { range.contains($0) ? $0 : nil } ?? fallback
    }
}
