import EarshotCore
import Foundation

extension PlaybackEngine {
    /// Where the chosen output is kept (a settings row holding the device's name).
    static let outputKey = "playback.output"

    /// Reads the chosen output and tells mpv (at start; mpv's list has not arrived yet, so a
    /// device that is gone is dropped for "auto" when it does — `devicesChanged`).
    func restoreOutput() async {
        if let saved = try? await store.setting(Self.outputKey), !saved.isEmpty { state.output = saved }
        resilience.activeOutput = OutputDecision.atStart(chosen: state.output, devices: state.outputs)
        if resilience.activeOutput != AudioDevice.automatic { player.setAudioDevice(resilience.activeOutput) }
    }

    /// `output {device}`: one of the listed outputs (or "auto"), used at once and remembered.
    func chooseOutput(_ device: String) async throws(CommandError) {
        guard device == AudioDevice.automatic || state.outputs.contains(where: { $0.name == device }) else {
            let names = ([AudioDevice.automatic] + state.outputs.map(\.name)).reduce(into: [String]()) {
                if !$0.contains($1) { $0.append($1) }
            }
            throw CommandError("no output \"\(device)\": the outputs are \(names.joined(separator: ", "))")
        }
        do { try await store.setSetting(Self.outputKey, device) } catch {
            throw CommandError.internalFailure("could not save the setting", error)
        }
        state.output = device
        switchOutput(to: device)
        publishState()
    }

    /// Tells mpv to play through `device` from now on. Into the rooms or out of them, the listener
    /// goes on from what the rooms heard: leaving them, mpv goes back the second the rooms had not
    /// played yet (lost with them); joining them, the rooms start from here.
    func switchOutput(to device: String) {
        let wasRooms = playingToRooms
        resilience.activeOutput = device
        player.setAudioDevice(device)
        guard wasRooms != playingToRooms, loaded else { return }
        if wasRooms { player.seek(to: state.position) }
        roomsWentOn(from: state.position)
    }

    /// mpv's device list changed (at start, and whenever the host's devices do): carries out
    /// `OutputDecision` — the device in use gone pauses playback and says why.
    /// `devices` is mpv's own list; the outputs add the rooms while they are there (PlaybackEngine+Rooms).
    func devicesChanged(_ devices: [AudioDevice]) async {
        roomsLink.mpvDevices = devices
        let all = outputs(withMPV: devices)
        let decision = OutputDecision.afterChange(before: state.outputs, after: all, chosen: state.output,
                                                  active: resilience.activeOutput, playing: loaded && state.isPlaying)
        state.outputs = all
        // The whole change is made, and sent, before the position is saved: the save waits, and while it
        // does anyone reading the state saw it paused without the notice saying why (a full test run
        // caught that once).
        var pausedForLoss = false
        switch decision {
        case .keep:
            break
        case .fallBack(let pause, let notice):
            switchOutput(to: AudioDevice.automatic)
            if pause {
                setPaused(true)
                resilience.pausedForLostOutput = true
                pausedForLoss = true
            }
            if let notice { state.notice = notice }
        case .restore(let device):
            switchOutput(to: device)
            // Back while still paused for its loss: offer to go on (resuming stays the listener's choice).
            if resilience.pausedForLostOutput, state.paused, state.episode != nil {
                let label = all.first { $0.name == device }?.description ?? device
                state.resumeOffer = label
                state.notice = "\(label) is connected again."
            }
        }
        publishState()
        if pausedForLoss { await savePosition(force: true) }
    }
}

extension PlaybackEngine {
    /// mpv's error when it could not open the sound output (`MPV_ERROR_AO_INIT_FAILED`: "audio output
    /// initialization failed"), at a load or when the sound server went away mid-play.
    static func isOutputFailure(_ message: String) -> Bool { message.contains("audio output") }

    /// mpv could not open, or lost, the sound output: nothing is wrong with the episode. It is not
    /// marked as failed and the queue does not move on — with no sound device at all every queued
    /// episode was marked, one after another, and a sound server that died mid-play marked the one
    /// playing — playback pauses where it was, the position stored, and play goes on from there
    /// (a new load opens the output again). Called with the file ended (`loading` idle, paused).
    func outputFailed(_ episode: Episode, message: String) async {
        let wasPlaying = !resilience.waitingForStart
        resilience.waitingForStart = false
        state.error = wasPlaying
            ? "the sound output stopped while \(episode.title) played (\(message)): paused where it was; play goes on from there"
            // The commonest first-run failure: no sound device (or the wrong one) on this machine.
            : "could not play \(episode.title): \(message) — no sound device could be opened; start Earshot with --audio-output (e.g. pulse, pipewire, alsa)"
        publishState()
        await savePosition(force: true)
    }
}
