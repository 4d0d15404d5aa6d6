import EarshotCore
import Foundation

/// Playing on after the process died: while an episode plays, the library holds its id (settings
/// row `playback.session`); pausing, stopping and a clean shutdown clear it. A start that finds it
/// set follows a crash (a killed process, mpv taking Earshot down): the episode plays again from
/// its saved position, as the service manager restarted us for exactly that.
extension PlaybackEngine {
    static let sessionKey = "playback.session"

    /// Writes the marker when what is playing changed (one write per play or pause, not per tick).
    func markSession() async {
        let playing = resilience.shuttingDown ? nil : (state.isPlaying ? current?.id : nil)
        guard playing != sessionMarker else { return }
        let stored = await persist("which episode is playing") {
            try await store.setSetting(Self.sessionKey, playing.map(String.init) ?? "")
        }
        if stored { sessionMarker = playing }
    }

    /// At start: an episode marked playing means the last run did not stop cleanly; play it on.
    func resumeSession() async {
        let text: String?
        do { text = try await store.setting(Self.sessionKey) } catch {
            Log.warning("playback", "could not read whether the last run stopped while playing: \(error)")
            return
        }
        guard let text, let id = Int64(text) else { return }
        sessionMarker = id
        Log.info("playback", "the last run stopped while episode \(id) played: playing it on from its saved position")
        do { try await handle(.play(episode: id)) } catch {
            Log.warning("playback", "could not play episode \(id) on: \(error.message)")
            await persist("which episode is playing") { try await store.setSetting(Self.sessionKey, "") }
            sessionMarker = nil
        }
    }
}
