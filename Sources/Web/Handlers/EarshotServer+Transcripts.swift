import EarshotCore
import FeedFetching
import Feeds
import Foundation

/// An episode's transcript (docs/protocol.md): `GET /api/episodes/{id}/transcript`, fetched the
/// first time it is asked for (an episode opened), then kept in the library, its words searchable.
extension EarshotServer {
    private struct TranscriptBody: Encodable {
        var cues: [TranscriptCue]
        var url: String
        var format: String
    }

    /// Transcript files larger than this are refused (a three-hour show's word-level JSON is ~3 MB).
    static let transcriptMaximumBytes = 8 * 1_048_576
    static let transcriptTimeout: TimeInterval = 20

    func episodeTranscript(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.id()
        guard let episode = try await store.episode(id: id) else { throw HTTPError.notFound("no episode \(id)") }
        guard let chosen = TranscriptChoice.best(episode.details?.transcripts ?? []) else {
            throw HTTPError.notFound("this episode has no transcript")
        }
        if let cues = try await store.cachedTranscript(episodeID: id, url: chosen.url) {
            return try .json(TranscriptBody(cues: cues, url: chosen.url,
                                            format: TranscriptChoice.announcedFormat(chosen)?.rawValue ?? "text"))
        }
        let data = try await transcriptFile(chosen.url)
        let format = TranscriptFormat.detect(mimeType: chosen.type, url: chosen.url, data: data)
        let cues: [TranscriptCue]
        do { cues = try TranscriptParser.cues(data, format: format) } catch {
            throw HTTPError(502, "the transcript could not be read: \(error)")
        }
        // Kept only when read: a failure is tried again the next time the episode is opened.
        try await store.storeTranscript(episodeID: id, url: chosen.url, format: format.rawValue, cues: cues)
        return try .json(TranscriptBody(cues: cues, url: chosen.url, format: format.rawValue))
    }

    /// The transcript file's bytes: the bundled demo's read from `Public/`, any other fetched.
    private func transcriptFile(_ address: String) async throws -> Data {
        if TranscriptChoice.isOwn(address) {
            let file = configuration.publicDirectory.appendingPathComponent(String(address.dropFirst()))
            do { return try Data(contentsOf: file) } catch { throw HTTPError(502, "the transcript could not be read: \(address) is missing") }
        }
        guard let url = URL(string: address) else { throw HTTPError(502, "the transcript's address is not usable: \(address)") }
        do {
            return try await FeedFetcher(timeout: Self.transcriptTimeout, maximumBytes: Self.transcriptMaximumBytes).fetch(url).data
        } catch let error as FeedError {
            throw HTTPError(502, "the transcript could not be fetched: \(error)")
        } catch {
            Log.warning("transcript", "\(address): \(String(reflecting: error))")
            throw HTTPError(502, "the transcript could not be fetched")
        }
    }
}
