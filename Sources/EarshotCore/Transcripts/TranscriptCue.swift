import FoundationEssentials

/// One cue of an episode's transcript: what is said, by whom, and when.
///
/// `start` and `end` are seconds from the start of the episode, nil when the transcript's format
/// has no times (plain text, HTML without `<time>`). `speaker` is nil when the file names none.
/// `text` is plain text, never markup.
public struct TranscriptCue: Codable, Sendable, Equatable {
    /// Where the cue starts, in seconds; nil when the file gives no time.
    public var start: Double?
    /// Where the cue ends, in seconds; nil when the file gives no end.
    public var end: Double?
    /// Who speaks, as the file names them; nil when it does not.
    public var speaker: String?
    /// What is said, as plain text.
    public var text: String

    /// A cue as given.
    public init(start: Double? = nil, end: Double? = nil, speaker: String? = nil, text: String) {
        self.start = start
        self.end = end
        self.speaker = speaker
        self.text = text
    }

    private enum CodingKeys: String, CodingKey { case start, end, speaker, text }

    /// Reads a cue back; `start`, `end` and `speaker` may be null or missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decodeIfPresent(Double.self, forKey: .start)
        end = try container.decodeIfPresent(Double.self, forKey: .end)
        speaker = try container.decodeIfPresent(String.self, forKey: .speaker)
        text = try container.decode(String.self, forKey: .text)
    }

    /// Every key is written, `null` when the value is nil: the web client reads one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let start { try container.encode(start, forKey: .start) } else { try container.encodeNil(forKey: .start) }
        if let end { try container.encode(end, forKey: .end) } else { try container.encodeNil(forKey: .end) }
        if let speaker { try container.encode(speaker, forKey: .speaker) } else { try container.encodeNil(forKey: .speaker) }
        try container.encode(text, forKey: .text)
    }
}
