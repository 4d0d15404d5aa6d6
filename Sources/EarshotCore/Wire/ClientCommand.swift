import FoundationEssentials

/// What a client may ask of the player, decoded from a WebSocket frame.
/// The wire names are in docs/protocol.md; unknown names are an error, not ignored.
public enum ClientCommand: Sendable, Equatable {
    case play(episode: Int64)
    case pause, resume, toggle, stop
    case seek(to: Double)
    case skip(by: Double)
    case rate(Double)
    case volume(Double)
    case mute(Bool)
    /// Keep-alive: answered with `ack`, changes nothing.
    case ping
    case queueAdd(episode: Int64, at: PlayQueue.Placement)
    case queueRemove(episode: Int64)
    case queueMove(from: Int, to: Int)
    case queueClear
    case next, previous
    case shuffle(Bool)
    case repeatMode(RepeatMode)
    /// Marks an episode played (from the top next time) or unplayed, by hand.
    case mark(episode: Int64, played: Bool)
    /// Changes listener preferences (`PlaybackSettings`: played margin, skip intervals); kept in the library.
    case settings(PlaybackSettings.Change)
    /// Sets (or with nil clears) the speed a podcast's episodes start at.
    case podcastSpeed(podcast: Int64, rate: Double?)
    /// Changes a podcast's own skips (intro, outro, chapters by title); kept in the library.
    case podcastSettings(podcast: Int64, PodcastSkips.Change)
    /// Undoes the skip `state.skipped` shows: back to where playing was, that skip not made again.
    case skipUndo
    /// Sets the sleep timer (replacing one already set).
    case sleep(SleepTimer.Request)
    /// Adds seconds to the sleep timer.
    case sleepExtend(seconds: Double)
    case sleepCancel
    /// Sets (replaces) the alarm.
    case alarmSet(Alarm)
    case alarmCancel
    /// A `playlist.*` command (named playlists).
    case playlist(PlaylistCommand)
    /// Seeks to a chapter of the merged list (`PlaybackState.chapters`), by index.
    case chapter(index: Int)
    /// Next chapter; previous restarts the chapter when more than 3 s in (`ChapterNavigation`).
    case chapterNext, chapterPrevious
    /// A `download` / `download.*` command: carried out by the download manager, not the engine.
    case download(DownloadCommand)
    /// An `inbox.*` command: carried out on the library by the server, not the engine.
    case inbox(InboxCommand)
    /// Plays through one of `PlaybackState.outputs` (by name; "auto": the system's), remembered.
    case output(device: String)
    /// Hand-off to a phone's own player (issue 16): `take` pauses the speakers, the phone plays the
    /// episode itself and reports where it is (`position`); `give` plays it on the speakers again
    /// from the phone's position.
    case handoff(HandoffCommand)
    /// A `room.*` command: Snapcast's rooms, carried out by the server's link to the snapserver.
    case room(RoomCommand)

    /// Speeds a listener may choose; pitch is kept at all of them.
    public static let rateRange: ClosedRange<Double> = PlaybackSpeed.range
    /// Volumes a listener may choose, in percent: above 100 amplifies (mpv's volume-max).
    public static let volumeRange: ClosedRange<Double> = 0...130

    /// Only a played margin: what `earshot serve --played-margin` sends.
    public static func settings(playedMargin: Double) -> ClientCommand { .settings(.init(playedMargin: playedMargin)) }
}
