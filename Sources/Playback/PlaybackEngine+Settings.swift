import EarshotCore
import Foundation

extension PlaybackEngine {
    /// Where the listener's preferences are kept (a settings row: one small JSON document).
    static let settingsKey = "playback.settings"

    /// Reads the saved preferences; a missing or unreadable row means the defaults.
    func restoreSettings() async {
        guard let json = try? await store.setting(Self.settingsKey),
              let saved = try? JSONDecoder().decode(PlaybackSettings.self, from: Data(json.utf8)) else { return }
        state.settings = saved
    }

    /// The margin before an episode's end that counts as its end (what `ResumePoint` is given).
    var playedMargin: Double { state.settings.playedMargin }

    /// Changes the played margin, stores it and tells every client. Applies from now on: an
    /// episode already marked played stays so, and one already left is not re-judged.
    func setPlayedMargin(_ seconds: Double) async throws(CommandError) {
        guard PlaybackSettings.playedMarginRange.contains(seconds) else {
            throw CommandError("playedMargin must be between 0 and \(Int(PlaybackSettings.playedMarginRange.upperBound)) seconds")
        }
        var settings = state.settings
        settings.playedMargin = seconds
        do {
            let data = try JSONEncoder().encode(settings)
            try await store.setSetting(Self.settingsKey, String(decoding: data, as: UTF8.self))
        } catch {
            throw CommandError("could not save the setting: \(error)")
        }
        state.settings = settings
        publishState()
    }
}
