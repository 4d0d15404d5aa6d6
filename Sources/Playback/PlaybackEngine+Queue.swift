import EarshotCore
import Foundation

extension PlaybackEngine {
    /// Where Up Next is kept between runs (a settings row: one small JSON document).
    static let queueSetting = "playback.queue"

    /// Reads the saved queue; a missing or unreadable one is an empty queue, never an error.
    func restoreQueue() async {
        guard let json = try? await store.setting(Self.queueSetting),
              let saved = try? JSONDecoder().decode(PlayQueue.self, from: Data(json.utf8)) else { return }
        queue = saved
        mirrorQueue()
    }

    /// Copies the queue into the state clients see, and saves it.
    func queueChanged() async {
        mirrorQueue()
        await storeSetting(Self.queueSetting, queue, as: "Up Next")
        await syncPreload() // what follows the loaded episode may have changed
    }

    private func mirrorQueue() {
        state.queue = queue.visibleOrder
        state.shuffle = queue.isShuffled
        state.repeatMode = queue.repeatMode
    }

    /// The queue commands; `play` and the end of an episode call into the queue from elsewhere.
    func handleQueue(_ command: ClientCommand) async throws(CommandError) {
        switch command {
        case .queueAdd(let id, let placement):
            guard (try? await store.episode(id: id)) ?? nil != nil else { throw CommandError("no episode with id \(id)") }
            queue.add(id, at: placement)
            await leaveInbox(id)
        case .queueRemove(let id):
            guard queue.remove(id) else { throw CommandError("episode \(id) is not in the queue") }
        case .queueMove(let from, let to):
            guard queue.move(from: from, to: to) else { throw CommandError("no queue position \(max(from, to))") }
        case .queueClear:
            queue.clear()
        case .shuffle(let on):
            queue.setShuffle(on)
        case .repeatMode(let mode):
            queue.setRepeat(mode)
        case .next:
            guard let id = queue.next() else { throw CommandError("nothing after this in the queue") }
            try await play(episodeID: id)
        case .previous:
            switch queue.previous(position: state.position) {
            case .restart:
                let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
                let target = restartPoint.press(position: state.position, chapterStarts: state.chapters.map(\.start), now: now)
                await seek(to: target)
            case .play(let id): try await play(episodeID: id)
            case .nothing: throw CommandError("nothing is playing")
            }
        default:
            return
        }
        await queueChanged()
        publishState()
    }

    /// After an episode ends: what the queue (and repeat) says comes next, or nothing. A sleep
    /// timer waiting for this end leaves the next one open but paused.
    func advanceAfterEnd() async {
        let sleeping = sleepEndsWithEpisode()
        guard let id = queue.episodeEnded() else {
            await queueChanged()
            if sleeping { publishState() }
            return
        }
        await queueChanged()
        try? await play(episodeID: id, fromQueue: true, paused: sleeping)
    }
}
