import EarshotCore
import Foundation

/// Snapcast's rooms as one more output (issue 17): "Rooms" joins mpv's own devices in
/// `state.outputs` while a snapserver with Earshot's stream is linked, so choosing it, losing it
/// (paused, with a notice, "This computer" standing in) and getting it back are the output rules
/// every device follows (`OutputDecision`). While the rooms play, positions are what they hear
/// (`HeardClock`): Snapcast plays about a second after mpv writes.
struct RoomsLink: Sendable {
    /// mpv's own device list, as last reported (the outputs are this plus the rooms).
    var mpvDevices: [AudioDevice] = []
    /// A snapserver is linked and has Earshot's stream.
    var available = false
    /// Seconds from mpv writing to the rooms hearing (the snapserver's buffer and the pipe).
    var lead: Double = 1.0
    var clock = HeardClock()
}

extension PlaybackEngine {
    /// The snapserver's rooms changed (or it came or went): the state shows them, and the outputs
    /// gain or lose "Rooms".
    public func roomsChanged(available: Bool, rooms: [Room], notice: String?) async {
        state.rooms = rooms
        state.roomsNotice = available ? nil : notice
        if available != roomsLink.available {
            roomsLink.available = available
            await devicesChanged(roomsLink.mpvDevices)
        } else {
            publishState()
        }
    }

    /// Seconds between mpv and what the rooms hear (the snapserver's buffer: 1 s unless set).
    public func setRoomsLead(_ seconds: Double) { roomsLink.lead = max(0, seconds) }

    /// The outputs: mpv's, then "Rooms" while they are there.
    func outputs(withMPV devices: [AudioDevice]) -> [AudioDevice] {
        devices + (roomsLink.available ? [SnapcastOutput.device] : [])
    }

    /// Whether the rooms are what plays now.
    var playingToRooms: Bool { resilience.activeOutput == SnapcastOutput.name }

    /// The position to show for mpv's `position` (the rooms hear it later).
    func heardPosition(_ position: Double) -> Double {
        guard playingToRooms else { return position }
        var clock = roomsLink.clock
        clock.lead = roomsLink.lead
        return clock.heard(mpvPosition: position, playing: state.isPlaying)
    }

    /// Playback goes on from `position` (a resume, seek or load): the rooms hear that first.
    func roomsWentOn(from position: Double) { roomsLink.clock.wentOn(from: position) }
}
