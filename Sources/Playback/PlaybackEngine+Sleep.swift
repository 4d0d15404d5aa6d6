import EarshotCore
import Foundation

/// The sleep timer carried out: `SleepTimer` decides, this file looks at the player often enough
/// to follow it (every 0.5 s, every 0.1 s during the fade), turns mpv's volume down, pauses, and
/// keeps `state.sleep` current.
extension PlaybackEngine {
    /// How often the timer looks while its end is far, and while it fades.
    static let sleepLook: Double = 0.5
    static let sleepFadeLook: Double = 0.1

    /// `sleep`, `sleep.extend`, `sleep.cancel`.
    func handleSleep(_ command: ClientCommand) throws(CommandError) {
        let moment = sleepMoment()
        switch command {
        case .sleep(let request):
            // Minutes count from the next play; the end of an episode or chapter needs one.
            if case .after = request {} else if state.episode == nil { throw CommandError("nothing is playing") }
            guard let timer = SleepTimer(request, at: moment) else {
                throw CommandError("this episode has no chapters")
            }
            controls.sleep = timer
        case .sleepExtend(let seconds):
            guard var timer = controls.sleep else { throw CommandError("no sleep timer is set") }
            timer.account(moment)
            guard let longer = timer.extended(by: seconds, at: moment) else {
                throw CommandError("the episode's length is not known yet")
            }
            controls.sleep = longer
        case .sleepCancel:
            guard controls.sleep != nil else { return }
            clearSleep()
            publishState()
            return
        default:
            return
        }
        setFade(1) // a new or longer timer starts loud again; the next look fades if due
        startSleepLoop()
        publishState()
    }

    /// Forgets the timer and gives the listener's volume back (no message: callers publish).
    func clearSleep() {
        controls.sleepTask?.cancel()
        controls.sleepTask = nil
        controls.sleep = nil
        setFade(1)
        state.sleep = nil
    }

    /// At the end of an episode: whether the timer was waiting for it. If so it is done (volume
    /// back) and the engine opens what comes next without playing it.
    func sleepEndsWithEpisode() -> Bool {
        guard let timer = controls.sleep, timer.endsWithEpisode else { return false }
        clearSleep()
        return true
    }

    /// Keeps `state.sleep` as of now (called before every `state` goes out).
    func refreshSleepStatus() {
        guard var timer = controls.sleep else { state.sleep = nil; return }
        let moment = sleepMoment()
        timer.account(moment)
        controls.sleep = timer
        state.sleep = timer.status(at: moment)
    }

    /// The player now, as the timer needs it. The position is mpv's own while playing (the
    /// state's moves with events), so a fade and a chapter's end are followed closely.
    func sleepMoment() -> SleepTimer.Moment {
        let playing = state.isPlaying && loaded
        let position = playing && loading.positionsAreCurrent ? (player.timePosition() ?? state.position) : state.position
        return SleepTimer.Moment(now: ProcessInfo.processInfo.systemUptime, playing: playing, position: position,
                                 duration: state.duration, rate: state.rate, chapters: state.chapters)
    }

    private func startSleepLoop() {
        controls.sleepTask?.cancel()
        controls.sleepTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let pause = await self?.sleepStep() else { return }
                try? await Task.sleep(for: .milliseconds(Int(pause * 1000)))
            }
        }
    }

    /// One look: follows the timer's decision and says when to look again (nil: the timer is gone).
    private func sleepStep() async -> Double? {
        guard var timer = controls.sleep else { return nil }
        let moment = sleepMoment()
        timer.account(moment)
        controls.sleep = timer
        guard moment.playing else { return Self.sleepLook }
        switch timer.decide(moment) {
        case .wait(let seconds):
            setFade(1)
            return min(max(seconds, Self.sleepFadeLook), Self.sleepLook)
        case .fade(let level):
            setFade(level)
            return Self.sleepFadeLook
        case .fire:
            // Pause first, then give the volume back: mpv does them in this order, so nothing
            // plays loud in between.
            controls.sleepTask = nil // this task: it ends with this look
            controls.sleep = nil
            state.sleep = nil
            setPaused(true)
            setFade(1)
            publishState()
            await savePosition(force: true)
            return nil
        }
    }

    func setFade(_ level: Double) {
        // Steps of 1 % are below hearing and spare mpv a property change per look.
        let rounded = (level * 100).rounded() / 100
        guard rounded != controls.fadeLevel else { return }
        controls.fadeLevel = rounded
        applyVolume()
    }
}
