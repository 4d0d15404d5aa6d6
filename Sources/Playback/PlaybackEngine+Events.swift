import EarshotCore
import Foundation

extension PlaybackEngine {
    /// Folds one mpv event into the state. Property changes that clients draw publish a
    /// `state`; the position alone only moves with the 0.5 s `time` ticks.
    func apply(_ event: MPVEvent) async {
        switch event {
        case .property(.audioDevices(let devices)):
            await devicesChanged(devices)
        case .property(.silence(let start, let end)):
            await silenceReported(start: start, end: end)
        case .property(let property):
            applyProperty(property)
            if case .timePosition = property { await applySkips() }
        case .fileLoaded:
            let (phase, seek) = loading.fileOpened()
            loading = phase
            if let seek { player.seek(to: seek) }
            publishState()
        case .playbackRestart:
            // A seek or load finished: clients should see the new position now.
            loading = loading.playbackRestarted()
            let unmarked = playbackStarted()
            state.buffering = false
            updateBuffering()
            publishState()
            if unmarked { await saveFailures() }
            await syncPreload()
        case .endFile(let reason):
            await ended(reason)
        case .commandFailed(let message):
            // A property change or command mpv refused: nothing a listener can act on, and load
            // failures arrive as `.endFile(.error)` instead.
            Log.info("mpv", "refused a command: \(message)")
        case .seekAnswered(let refusal):
            // A refused seek (e.g. at the very end of a file) brings no restart.
            if let refusal { Log.info("mpv", "refused a seek: \(refusal)") }
            loading = loading.seekAnswered(accepted: refusal == nil)
        case .shutdown:
            // mpv quit without being asked (our own shutdown never gets here): replace it.
            await restartPlayer(because: "it quit")
        case .startFile, .seek:
            break
        }
    }

    private func applyProperty(_ property: MPVProperty) {
        switch property {
        case .timePosition(let position):
            // mpv reports nil between files; keep the last known position then. While paused
            // the position only moves by our own seeks (already in the state): mpv's later
            // reports then subtract its audio buffer (~0.15 s) and would pull the scrubber back.
            // A seek asked for before the file opened is still on its way: the target stands.
            if let position, loading.positionsAreCurrent, !state.paused {
                state.position = steadyPosition(heardPosition(position))
                let chapter = PlaybackState.chapterIndex(at: position, in: state.chapters)
                if chapter != state.chapter { state.chapter = chapter; publishState() }
            }
        case .duration(let duration):
            if let duration, duration > 0, loaded, abs(duration - state.duration) > 0.01 {
                state.duration = duration
                publishState()
            }
        case .paused(let paused):
            // Normally an echo of our own command; a change from elsewhere is reported. Reports
            // queue up behind commands: a resume's echo can arrive after a pause sent right behind
            // it, so mpv's value now decides, not the report — once mpv has carried out every pause
            // change we sent (they are asynchronous; until then its value can be the old one too).
            if loaded, paused != state.paused, !player.pauseChangeInFlight {
                let now = player.pausedNow() ?? paused
                if now != state.paused { state.paused = now; publishState() }
            }
        case .speed(let rate):
            // An echo of our own command; with skip silence on, mpv's speed is a pause's now and
            // then, which is not the listener's.
            if listening.applied.skipSilence == .off, abs(rate - state.rate) > 0.0001 { state.rate = rate; publishState() }
        case .volume:
            // Earshot is mpv's only client, so the state keeps the volume the listener chose:
            // mpv's own is lower while the sleep timer fades, and its echoes would undo that.
            break
        case .muted(let muted):
            if muted != state.muted { state.muted = muted; publishState() }
        case .pausedForCache(let waiting):
            resilience.pausedForCache = waiting
            updateBuffering()
        case .seeking(let seeking):
            seekingChanged(seeking) // PlaybackEngine+Recovery: only a slow seek is buffering
        case .chapters(let chapters):
            // The file's own chapters: one source of the merged list (PlaybackEngine+Chapters).
            if loaded, chapters != chapterSources.file {
                chapterSources.file = chapters
                chaptersChanged()
            }
        case .chapter:
            break // derived from the position, so it follows seeks without waiting on mpv
        case .audioDevices, .silence:
            break // needs to await the library: handled in `apply`
        }
    }

    private func ended(_ reason: MPVEndReason) async {
        guard loaded, let episode = current else { return }
        switch reason {
        case .eof:
            noteEndOfFile()
            if let early = EarlyEnd.reason(position: state.position, duration: state.duration,
                                           isRemote: !episode.mediaURL.hasPrefix("/")) {
                await endedEarly(episode, because: early) // PlaybackEngine+Recovery
                return
            }
            finishedForListening()
            loading = .idle
            state.paused = true
            state.buffering = false
            state.position = state.duration
            await storePlayed(episode.id, true)
            publishState()
            await advanceAfterEnd()
            settlePreload()
        case .error(let message):
            noteEndOfFile()
            loading = .idle
            state.paused = true
            state.buffering = false
            if Self.isOutputFailure(message) {
                await outputFailed(episode, message: message) // PlaybackEngine+Outputs
                settlePreload()
                return
            }
            state.error = "could not play \(episode.title): \(message)"
            publishState()
            await episodeFailed(episode, message: state.error ?? message)
            settlePreload()
        case .stopped, .other:
            break // our own stop or a replacement load: already accounted for
        }
    }
}
