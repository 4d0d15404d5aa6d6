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

    /// Changes preferences (the played margin, the skip intervals), stores them and tells every
    /// client. A new margin applies from now on: an episode already marked played stays so, and
    /// one already left is not re-judged.
    func changeSettings(_ change: PlaybackSettings.Change) async throws(CommandError) {
        try await storeSettings(try state.settings.applying(change))
        publishState()
    }

    /// Writes `settings` to the library and makes them the state's; nothing changes when the
    /// write fails.
    func storeSettings(_ settings: PlaybackSettings) async throws(CommandError) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys // the same row for the same settings
            let data = try encoder.encode(settings)
            try await store.setSetting(Self.settingsKey, String(decoding: data, as: UTF8.self))
        } catch {
            throw CommandError.internalFailure("could not save the setting", error)
        }
        state.settings = settings
        settingsChangedFilters()
    }
}
