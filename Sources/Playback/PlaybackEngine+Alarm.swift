import EarshotCore
import Foundation

/// The engine's bookkeeping for the alarm (one stored property of the actor).
struct AlarmSession: Sendable {
    var alarm: Alarm?
    /// When it rings next.
    var next: Date?
    /// Waits for `next` (looking at the clock every second: the host may sleep or change time).
    var waitTask: Task<Void, Never>?
    /// Raises the volume after it rang; nil when it is not ringing.
    var rampTask: Task<Void, Never>?
}

extension PlaybackEngine {
    /// Where the alarm is kept (a settings row: one small JSON document).
    static let alarmKey = "playback.alarm"
    /// How often the waiting alarm looks at the clock, and the ringing one raises the volume.
    static let alarmLook: Duration = .milliseconds(500)
    static let rampLook: Duration = .milliseconds(250)

    /// `alarm.set` and `alarm.cancel`.
    func handleAlarm(_ command: ClientCommand) async throws(CommandError) {
        switch command {
        case .alarmSet(let alarm):
            for podcast in alarm.podcasts ?? [] { try await requireSubscribed(podcast) }
            try await storeAlarm(alarm)
            alarming.alarm = alarm
            stopRamp()
            scheduleAlarm()
        case .alarmCancel:
            guard alarming.alarm != nil else { return }
            try await storeAlarm(nil)
            alarming.alarm = nil
            alarming.waitTask?.cancel()
            alarming.next = nil
            stopRamp()
        default:
            return
        }
        refreshAlarmStatus()
        publishState()
    }

    /// Reads the stored alarm (a missing or unreadable row: none) and waits for it.
    func restoreAlarm() async {
        guard let json = try? await store.setting(Self.alarmKey),
              let saved = try? JSONDecoder().decode(Alarm.self, from: Data(json.utf8)),
              let alarm = try? Alarm(time: saved.time, days: saved.days, podcasts: saved.podcasts) else { return }
        alarming.alarm = alarm
        scheduleAlarm()
        refreshAlarmStatus()
    }

    private func storeAlarm(_ alarm: Alarm?) async throws(CommandError) {
        do {
            if let alarm {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                try await store.setSetting(Self.alarmKey, String(decoding: try encoder.encode(alarm), as: UTF8.self))
            } else {
                try await store.setSetting(Self.alarmKey, "")
            }
        } catch {
            throw CommandError.internalFailure("could not save the alarm", error)
        }
    }

    /// `state.alarm` as of now.
    func refreshAlarmStatus() {
        state.alarm = alarming.alarm.map { AlarmStatus(alarm: $0, next: alarming.next, ringing: alarming.rampTask != nil) }
    }

    /// Works out when the alarm rings next and waits for it.
    private func scheduleAlarm() {
        alarming.waitTask?.cancel()
        guard let alarm = alarming.alarm else { alarming.next = nil; return }
        let next = alarm.next(after: clock(), calendar: .current)
        alarming.next = next
        guard let next else { return }
        alarming.waitTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                if self.clock() >= next {
                    await self.ring(due: next)
                    return
                }
                try? await Task.sleep(for: Self.alarmLook)
            }
        }
    }

    /// The alarm's time came: the newest unplayed episode of its podcasts (or Up Next) plays
    /// from silence, the volume rising over a minute; then it waits for its next day.
    private func ring(due: Date) async {
        guard let alarm = alarming.alarm, alarming.next == due else { return }
        Log.info("alarm", "ringing (\(alarm.time))")
        scheduleAlarm() // the next day's, from now on
        clearSleep()
        let episode = await alarmEpisode(alarm)
        guard let episode else {
            state.notice = "The alarm rang at \(alarm.time), but there was nothing to play."
            refreshAlarmStatus()
            publishState()
            return
        }
        setFade(0) // silent before the first sound
        do {
            try await play(episodeID: episode, fromQueue: alarm.podcasts == nil && queue.contains(episode))
            if !state.isPlaying { setPaused(false) }
        } catch {
            setFade(1)
            state.notice = "The alarm rang at \(alarm.time), but could not play: \(error.message)"
            refreshAlarmStatus()
            publishState()
            return
        }
        startRamp()
        refreshAlarmStatus()
        publishState()
    }

    /// What the alarm plays: the newest unplayed episode of its podcasts, or Up Next's current
    /// (else first) episode.
    private func alarmEpisode(_ alarm: Alarm) async -> Int64? {
        guard let podcasts = alarm.podcasts else {
            return queue.current ?? queue.visibleOrder.first
        }
        var newest: Episode?
        for podcast in podcasts {
            guard let episodes = try? await store.episodes(podcastID: podcast, limit: 200),
                  let unplayed = episodes.first(where: { !$0.played }) else { continue }
            if newest == nil || (unplayed.published ?? .distantPast) > (newest?.published ?? .distantPast) { newest = unplayed }
        }
        return newest?.id
    }

    /// Raises the volume from silence to the listener's over `Alarm.rampSeconds`; a pause (or
    /// another episode, or the alarm cancelled) stops it at the listener's volume.
    private func startRamp() {
        alarming.rampTask?.cancel()
        let started = ProcessInfo.processInfo.systemUptime
        let episode = current?.id
        alarming.rampTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                let elapsed = ProcessInfo.processInfo.systemUptime - started
                let going = await self.rampStep(elapsed: elapsed, episode: episode)
                if !going { return }
                try? await Task.sleep(for: Self.rampLook)
            }
        }
    }

    /// One step of the ramp; false when it is over.
    private func rampStep(elapsed: Double, episode: Int64?) -> Bool {
        guard alarming.rampTask != nil else { return false }
        guard elapsed < Alarm.rampSeconds, state.isPlaying, current?.id == episode else {
            stopRamp()
            refreshAlarmStatus()
            publishState()
            return false
        }
        setFade(Alarm.rampLevel(elapsed: elapsed))
        return true
    }

    private func stopRamp() {
        guard alarming.rampTask != nil else { return }
        alarming.rampTask?.cancel()
        alarming.rampTask = nil
        setFade(1)
    }
}
