import EarshotCore
import Foundation
import Library

/// The engine's side of the listening log (issue 18): the span under way, fed at every state
/// change and tick, and a writer that stores spans in order (one row each, updated as it grows).
struct ListeningLog: Sendable {
    /// The span under way and the writer's key for it.
    var tally: ListeningTally?
    var key = UUID()
    /// When the state was last looked at, and whether it was playing then.
    var lastLook: Date?
    var wasPlaying = false
    /// Savings of skips made before the span of their episode opened (an intro, at load).
    var pending: (episode: Int64, saved: SavedSeconds)?
    /// The heard position when the pause now playing fast sped up.
    var fastFrom: Double?
    var lastWrite = Date.distantPast
    /// Spans to store, in order (`writer` stores them).
    var writes: AsyncStream<LogWrite>.Continuation?
    var writer: Task<Void, Never>?

    enum LogWrite: Sendable {
        case span(UUID, ListeningSpan)
        /// The span of this key is closed: no write for it follows, so its row id is forgotten.
        case closed(UUID)
        case flush(@Sendable () -> Void)
    }

    /// How often a span under way is written.
    static let writeInterval: TimeInterval = 5
}

extension PlaybackEngine {
    /// Starts the writer. Called once from `start`.
    func startListeningLog() {
        let (stream, continuation) = AsyncStream.makeStream(of: ListeningLog.LogWrite.self)
        log.writes = continuation
        log.writer = Task { [store] in
            var rows: [UUID: Int64] = [:]
            for await write in stream {
                switch write {
                case .span(let key, var span):
                    span.id = rows[key]
                    do { rows[key] = try await store.saveListeningSpan(span) } catch {
                        Log.error("library", "could not save a listening span: \(String(reflecting: error))")
                    }
                case .closed(let key):
                    // A span a pause, a seek or an episode's end closed: an hour of 50 clients toggling
                    // opens thousands, and their keys would otherwise stay for the server's life.
                    rows[key] = nil
                case .flush(let done):
                    done()
                }
            }
        }
    }

    /// Folds the time since the last look into the span under way; opens a span when playing
    /// starts (or another episode plays) and closes it when playing stops. Called at every state
    /// change and tick.
    func lookAtListening() {
        let now = Date()
        let playing = loaded && state.isPlaying && !state.buffering && current != nil && loading.positionsAreCurrent
        if let last = log.lastLook, log.wasPlaying, var tally = log.tally {
            tally.played(wall: min(now.timeIntervalSince(last), 5), rate: state.rate, fast: listening.silence.isFast,
                         position: state.position)
            log.tally = tally
        }
        log.lastLook = now
        log.wasPlaying = playing
        if let tally = log.tally, !playing || tally.span.episode != current?.id {
            closeSpan()
        }
        if playing, log.tally == nil, let episode = current {
            var span = ListeningSpan(episode: episode.id, podcast: episode.podcastID, podcastTitle: episode.podcastTitle,
                                     startedAt: now, from: state.position)
            if let pending = log.pending, pending.episode == episode.id { span.saved = pending.saved }
            log.pending = nil
            log.tally = ListeningTally(span: span)
            log.key = UUID()
        }
        if log.tally != nil, now.timeIntervalSince(log.lastWrite) >= ListeningLog.writeInterval { writeSpan() }
    }

    /// The span under way ends (a pause, a seek, another episode, the end).
    func closeSpan() {
        writeSpan()
        if log.tally != nil { log.writes?.yield(.closed(log.key)) }
        log.tally = nil
    }

    private func writeSpan() {
        guard let tally = log.tally else { return }
        log.lastWrite = Date()
        if tally.span.isEmpty, tally.span.id == nil { return }
        log.writes?.yield(.span(log.key, tally.span))
    }

    /// A listener's seek: the span so far ends where it was, the next starts where it lands.
    func seekForListening() {
        lookAtListening()
        closeSpan()
    }

    /// The loaded episode played to its end.
    func finishedForListening() {
        lookAtListening()
        if var tally = log.tally, tally.span.episode == current?.id {
            tally.finish()
            log.tally = tally
        } else if let episode = current {
            // Ended with no span open (e.g. its outro skip's seek landed at the end at once).
            var span = ListeningSpan(episode: episode.id, podcast: episode.podcastID, podcastTitle: episode.podcastTitle,
                                     startedAt: Date(), from: state.position, finished: true)
            if let pending = log.pending, pending.episode == episode.id { span.saved = pending.saved; log.pending = nil }
            log.tally = ListeningTally(span: span)
            log.key = UUID()
        }
        closeSpan()
    }

    /// A podcast's skip of `notice` saved (or, undone, gave back) its stretch of the file.
    func skipForListening(_ notice: SkipNotice, undone: Bool = false) {
        let seconds = max(0, notice.to - notice.from) * (undone ? -1 : 1)
        lookAtListening()
        if var tally = log.tally, tally.span.episode == notice.episode {
            tally.skipped(notice.kind, seconds)
            log.tally = tally
        } else {
            var pending = log.pending?.episode == notice.episode ? log.pending!.saved : SavedSeconds()
            pending.add(notice.kind, seconds)
            log.pending = (notice.episode, pending)
        }
    }

    /// A pause began to play fast at the heard position.
    func silenceSpedUpForListening() {
        lookAtListening()
        log.fastFrom = state.position
    }

    /// The pause ended: playing goes on at `target`.
    func silenceEndedForListening(at target: Double) {
        lookAtListening()
        if var tally = log.tally, let from = log.fastFrom {
            tally.silenceSkipped(from: from, to: target)
            log.tally = tally
        }
        log.fastFrom = nil
    }

    /// Writes the span under way and waits until every span so far is stored (the statistics
    /// then count the listening up to now).
    public func flushListening() async {
        lookAtListening()
        writeSpan()
        guard let writes = log.writes else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writes.yield(.flush { done.resume() })
        }
    }

    /// The statistics of `period` as of now.
    public func listeningStats(_ period: StatsPeriod, calendar: Calendar = .current) async throws -> ListeningStats {
        await flushListening()
        let now = Date()
        let spans = try await store.listeningSpans(since: period.start(now: now, calendar: calendar))
        return ListeningStats(spans: spans, period: period, now: now, calendar: calendar)
    }
}
