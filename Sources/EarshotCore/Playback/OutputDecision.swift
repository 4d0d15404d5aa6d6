import FoundationEssentials

/// What the engine does when mpv's list of outputs changes (a device plugged in or pulled out).
/// Pure: the engine carries it out (`PlaybackEngine+Outputs`).
public enum OutputDecision: Sendable, Equatable {
    /// Nothing to do.
    case keep
    /// The device in use went away: play through "auto" from now on; when playback was running it
    /// pauses, and `notice` tells every client why (resuming is the listener's choice, as when a
    /// phone's headphones are pulled). No notice for a device mpv never listed (an old setting).
    case fallBack(pause: Bool, notice: String?)
    /// The chosen device came back while "auto" stood in for it: use it again (nothing resumes).
    case restore(String)

    /// Decides what a new device list means.
    /// - Parameters:
    ///   - before: the list as it was; `after`: as it is now.
    ///   - chosen: the listener's device (`AudioDevice.automatic` for none).
    ///   - active: the device mpv is told to use now (the chosen one, or "auto" standing in).
    ///   - playing: an episode is loaded and not paused.
    public static func afterChange(before: [AudioDevice], after: [AudioDevice], chosen: String, active: String,
                                   playing: Bool) -> OutputDecision {
        let present = Set(after.map(\.name))
        if active != AudioDevice.automatic, !present.contains(active) {
            // Only a device that was there and left counts as unplugged: one that mpv never
            // listed (an old setting) simply is not used, and nothing pauses over it.
            let label = before.first { $0.name == active }?.description
            guard let label else { return .fallBack(pause: false, notice: nil) }
            let what = label.isEmpty ? active : label
            return .fallBack(pause: playing, notice: playing ? "Paused: \(what) was disconnected." : "\(what) was disconnected.")
        }
        if chosen != AudioDevice.automatic, active == AudioDevice.automatic, present.contains(chosen) {
            return .restore(chosen)
        }
        return .keep
    }

    /// The device to tell mpv at start (or after a restart): the chosen one when mpv lists it,
    /// else "auto" (a device remembered from another day may be unplugged now). An empty list
    /// means mpv has not reported yet: the choice is tried as it is.
    public static func atStart(chosen: String, devices: [AudioDevice]) -> String {
        guard !devices.isEmpty, chosen != AudioDevice.automatic else { return chosen }
        return devices.contains { $0.name == chosen } ? chosen : AudioDevice.automatic
    }
}
