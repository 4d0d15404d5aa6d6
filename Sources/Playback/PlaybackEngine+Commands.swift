import EarshotCore
import Foundation
import Library

extension PlaybackEngine {
    /// Carries out one client command. Throws a message for the client when it cannot.
    public func handle(_ command: ClientCommand) async throws(CommandError) {
        switch command {
        case .ping: return
        case .download: throw CommandError("downloads are handled by the download manager") // EarshotServer routes them
        case .inbox: throw CommandError("the Inbox is handled by the server") // EarshotServer routes it
        case .room: throw CommandError("the rooms are handled by the server") // EarshotServer routes them
        case .queueAdd, .queueRemove, .queueMove, .queueClear, .shuffle, .repeatMode, .next, .previous:
            try await handleQueue(command)
        case .playlist(let playlist): try await handlePlaylist(playlist)
        case .chapter, .chapterNext, .chapterPrevious: try await handleChapter(command)
        case .output(let device): try await chooseOutput(device)
        case .handoff(let handoff): try await handleHandoff(handoff)
        case .mark(let id, let played):
            do { try await store.setPlayed(episodeID: id, played: played) } catch LibraryError.episodeNotFound {
                throw CommandError("no episode with id \(id)")
            } catch {
                throw CommandError.internalFailure("could not save the played mark", error)
            }
            if id == current?.id, played { savedPosition = 0 }
        case .settings(let change): try await changeSettings(change)
        case .rate, .volume, .mute, .podcastSpeed: try await handleSpeedAndVolume(command)
        case .podcastSettings, .skipUndo: try await handleSkips(command)
        case .sleep, .sleepExtend, .sleepCancel: try handleSleep(command)
        case .alarmSet, .alarmCancel: try await handleAlarm(command)
        case .play(let id): try await play(episodeID: id); await leaveInbox(id)
        case .pause: try requireEpisode(); setPaused(true); await savePosition(force: true)
        case .resume: try await resume()
        case .toggle:
            try requireEpisode()
            if state.paused { try await resume() } else { setPaused(true); await savePosition(force: true) }
        case .stop: await stop()
        case .seek(let to): try requireEpisode(); await seek(to: to)
        case .skip(let by):
            try requireEpisode()
            await seek(to: ResumePoint.skip(from: state.position, by: by, duration: state.duration))
        }
    }

    private func requireEpisode() throws(CommandError) {
        guard state.episode != nil else { throw CommandError("nothing is playing") }
    }

    /// Plays an episode from where the listener left off; the one already loaded just resumes.
    /// `paused`: open it without playing (what the sleep timer leaves for the morning).
    func play(episodeID: Int64, fromQueue: Bool = false, paused: Bool = false) async throws(CommandError) {
        if state.episode?.id == episodeID, loaded {
            try await resume()
            return
        }
        let found: Episode?
        do { found = try await store.episode(id: episodeID) } catch {
            throw CommandError.internalFailure("could not read the library", error)
        }
        guard let episode = found else { throw CommandError("no episode with id \(episodeID)") }
        await savePosition(force: true, markingSession: false)
        await markPlayedIfFinished()
        if !fromQueue {
            // Playing something by hand makes it Up Next's current item (at the head if new).
            queue.play(episodeID)
            await queueChanged()
        }
        let start = ResumePoint.start(saved: episode.position, duration: episode.duration, played: episode.played,
                                      margin: playedMargin)
        load(episode, at: start, paused: paused)
        await markSession()
    }

    /// Addresses mpv may open: the web, and our own bundled files ("/demo/…", resolved to
    /// Public/). Never file://, edl://, av:// or anything else a hostile feed could name.
    public static func isPlayable(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || (url.hasPrefix("/") && !url.hasPrefix("//"))
    }

    private func load(_ episode: Episode, at start: Double, paused: Bool = false) {
        guard Self.isPlayable(episode.mediaURL) else {
            state.error = "cannot play \(episode.title): its address is not http(s) (\(episode.mediaURL.prefix(40)))"
            publishState()
            return
        }
        // A skip shown for the episode before goes with it; an outro's stays (Up Next moved on
        // by it, and its undo brings that episode back).
        if let skipped = state.skipped, skipped.kind != .outro { state.skipped = nil }
        let start = skippingIntro(of: episode, from: start)
        current = episode
        savedPosition = nil
        restartPoint = RestartPoint(resumedAt: start)
        loading = .opening(pendingSeek: nil)
        state.episode = NowPlaying(episode)
        state.position = start
        roomsWentOn(from: start)
        state.duration = episode.duration
        state.paused = paused
        state.buffering = true
        resetChapters(for: episode)
        skipsLoaded(episode, at: start)
        applyFilters(for: episode, at: start)
        applyStartingSpeed(for: episode)
        open(episode, at: start, paused: paused) // PlaybackEngine+Preload: clears the error, adopts a preloaded file
        publishState()
    }

    private func resume() async throws(CommandError) {
        guard let episode = current, state.episode != nil else { throw CommandError("nothing is playing") }
        if loaded {
            setPaused(false)
        } else {
            // It ended or failed: open it again where it stopped (from the top if finished).
            var fresh = episode
            if let stored = try? await store.episode(id: episode.id) { fresh = stored }
            load(fresh, at: ResumePoint.start(saved: fresh.position, duration: fresh.duration, played: fresh.played,
                                              margin: playedMargin))
        }
    }

    func setPaused(_ paused: Bool) {
        guard state.paused != paused else { return }
        if !paused { // the listener resumed: why it had paused is old news
            state.notice = nil
            state.resumeOffer = nil
            resilience.pausedForLostOutput = false
        }
        state.paused = paused
        player.setPaused(paused)
        if playingToRooms, loaded {
            // Paused, the rooms still play what mpv wrote: in the end they hear up to mpv's position.
            // Resumed, they are silent until what mpv writes now reaches them.
            if paused, loading.positionsAreCurrent, let exact = player.timePosition() { state.position = exact } else if !paused { roomsWentOn(from: state.position) }
        }
        publishState()
    }

    /// `restartingSilence`: false for skip silence's own seek to a pause's end (the listener's
    /// seeks start skip silence afresh where they land).
    func seek(to seconds: Double, restartingSilence: Bool = true) async {
        let target = state.duration > 0 ? min(seconds, state.duration) : seconds
        if !loaded, let episode = current,
           !ResumePoint.isFinished(position: target, duration: state.duration, margin: playedMargin) {
            // It had ended (and was marked played): moving back into it means the listener
            // wants to hear from there, so it is no longer "played" and resumes at the target.
            await storePlayed(episode.id, false)
        }
        state.position = target
        roomsWentOn(from: target)
        skipsSeeked(to: target)
        if restartingSilence {
            seekForListening()
            silenceRestarted(at: target)
        }
        let (phase, sendNow) = loading.seekRequested(target)
        loading = phase
        if sendNow { player.seek(to: target) }
        publishState()
        await savePosition(force: true)
    }

    /// Leaving an episode in its last 30 s (its outro; the listener's played margin) counts as having heard it.
    func markPlayedIfFinished() async {
        guard let episode = current,
              ResumePoint.isFinished(position: state.position, duration: state.duration, margin: playedMargin) else { return }
        await storePlayed(episode.id, true)
    }

    private func stop() async {
        await savePosition(force: true)
        await markPlayedIfFinished()
        player.stop()
        loading = .idle
        current = nil
        state.episode = nil
        state.position = 0
        state.duration = 0
        state.paused = true
        state.buffering = false
        resetChapters(for: nil)
        clearSleep() // nothing left to stop
        publishState()
    }
}
