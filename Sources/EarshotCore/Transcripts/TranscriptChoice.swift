import FoundationEssentials

/// Which of an episode's `podcast:transcript` links to open: the one whose format says the most
/// (times and speakers: Podcasting 2.0 JSON, then WebVTT, SRT, HTML, plain text), by the feed's
/// `type` or else the address; among equals, the first the feed lists. Pure.
public enum TranscriptChoice {
    static let preference: [TranscriptFormat] = [.json, .webvtt, .srt, .html, .text]

    public static func best(_ transcripts: [FeedTranscript]) -> FeedTranscript? {
        let web = transcripts.filter { isWeb($0.url) || isOwn($0.url) }
        return web.enumerated().min { a, b in
            (rank(a.element), a.offset) < (rank(b.element), b.offset)
        }?.element
    }

    /// The format the feed announces (type, else the address's extension), without fetching.
    public static func announcedFormat(_ transcript: FeedTranscript) -> TranscriptFormat? {
        TranscriptFormat.byMIMEType[TranscriptFormat.essence(ofMIMEType: transcript.type)]
            ?? TranscriptFormat.byExtension[TranscriptFormat.fileExtension(of: transcript.url)]
    }

    /// An http(s) address: fetched.
    public static func isWeb(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// One of this server's own files (the bundled demo's "/demo/…"): read from disk, never fetched.
    public static func isOwn(_ url: String) -> Bool {
        url.hasPrefix("/demo/") && !url.split(separator: "/").contains("..") && !url.contains("\\") && !url.contains("%")
    }

    private static func rank(_ transcript: FeedTranscript) -> Int {
        announcedFormat(transcript).flatMap { preference.firstIndex(of: $0) } ?? preference.count
    }
}
