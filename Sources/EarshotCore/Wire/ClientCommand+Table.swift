import FoundationEssentials

extension ClientCommand {
    public typealias Decoder = @Sendable (CommandFields) throws(CommandError) -> ClientCommand

    /// Every WebSocket command, one entry each: its wire name and how its arguments decode.
    /// Range checks happen here, so a frame that decodes is one the engine can carry out.
    public static let table: [String: Decoder] = [
        // Playback
        "play": { f throws(CommandError) in .play(episode: try f.episode()) },
        "pause": { _ in .pause },
        "resume": { _ in .resume },
        "toggle": { _ in .toggle },
        "stop": { _ in .stop },
        "ping": { _ in .ping },
        "seek": { f throws(CommandError) in
            let to = try f.number("to")
            guard to >= 0 else { throw CommandError("\"seek\" needs \"to\" ≥ 0") }
            return .seek(to: to)
        },
        "skip": { f throws(CommandError) in .skip(by: try f.number("by")) },
        "rate": { f throws(CommandError) in .rate(try rate(f, "value")) },
        "volume": { f throws(CommandError) in
            let value = try f.number("value")
            guard volumeRange.contains(value) else { throw CommandError("volume must be between 0 and 130") }
            return .volume(value)
        },
        "mute": { f throws(CommandError) in .mute(try f.bool("on")) },
        "output": { f throws(CommandError) in
            guard let device = f.string("device"), !device.isEmpty, device.utf8.count <= 1000 else {
                throw CommandError("\"output\" needs a device name \"device\" (one of state.outputs)")
            }
            return .output(device: device)
        },
        "handoff.take": { f throws(CommandError) in .handoff(.take(episode: try f.episode())) },
        "handoff.position": { f throws(CommandError) in
            .handoff(.position(episode: try f.episode(), at: try HandoffCommand.position(f.number("position"))))
        },
        "handoff.give": { f throws(CommandError) in
            .handoff(.give(episode: try f.episode(), at: try HandoffCommand.position(f.number("position"))))
        },
        "room.volume": { f throws(CommandError) in
            let value = try f.number("value")
            guard value >= 0, value <= 100 else { throw CommandError("\"room.volume\" needs \"value\" between 0 and 100") }
            return .room(.volume(room: try f.room(), value: Int(value.rounded())))
        },
        "room.mute": { f throws(CommandError) in .room(.mute(room: try f.room(), on: try f.bool("on"))) },
        "room.join": { f throws(CommandError) in .room(.join(room: try f.room())) },
        "room.leave": { f throws(CommandError) in .room(.leave(room: try f.room())) },
        "mark": { f throws(CommandError) in .mark(episode: try f.episode(), played: try f.bool("played")) },
        "settings": { f throws(CommandError) in
            let change = PlaybackSettings.Change(playedMargin: try f.optionalNumber("playedMargin"),
                                                 skipBack: try f.optionalNumber("skipBack"),
                                                 skipForward: try f.optionalNumber("skipForward"),
                                                 skipSilence: try f.choice("skipSilence", SilenceSkipping.self) ?? nil,
                                                 leveling: try f.choice("leveling", Leveling.self) ?? nil)
            guard change != PlaybackSettings.Change() else {
                throw CommandError("\"settings\" needs \"playedMargin\", \"skipBack\", \"skipForward\", \"skipSilence\" or \"leveling\"")
            }
            _ = try PlaybackSettings().applying(change) // range errors here, before the engine sees it
            return .settings(change)
        },
        "podcast.speed": { f throws(CommandError) in
            let podcast = try f.id("podcast", "a podcast id \"podcast\"")
            if !f.has("rate") || f.isNull("rate") { return .podcastSpeed(podcast: podcast, rate: nil) }
            return .podcastSpeed(podcast: podcast, rate: try rate(f, "rate"))
        },

        "podcast.settings": { f throws(CommandError) in
            let podcast = try f.id("podcast", "a podcast id \"podcast\"")
            var words: [String]?
            if f.has("skipChapters") {
                guard case .array(let values)? = f.fields["skipChapters"] else {
                    throw CommandError("\"skipChapters\" must be a list of words")
                }
                words = try values.map { value throws(CommandError) in
                    guard let word = value.string else { throw CommandError("\"skipChapters\" must be a list of words") }
                    return word
                }
            }
            let change = PodcastSkips.Change(introSkip: try f.optionalNumber("introSkip"),
                                             outroSkip: try f.optionalNumber("outroSkip"), skipChapters: words,
                                             skipSilence: try f.choice("skipSilence", SilenceSkipping.self, orDefault: true),
                                             leveling: try f.choice("leveling", Leveling.self, orDefault: true))
            guard change != PodcastSkips.Change() else {
                throw CommandError("\"podcast.settings\" needs \"introSkip\", \"outroSkip\", \"skipChapters\", \"skipSilence\" or \"leveling\"")
            }
            _ = try PodcastSkips().applying(change) // range errors here, before the engine sees it
            return .podcastSettings(podcast: podcast, change)
        },
        "skip.undo": { _ in .skipUndo },

        // Sleep timer
        "sleep": { f throws(CommandError) in
            if f.has("until") {
                switch f.string("until") {
                case "episode": return .sleep(.endOfEpisode)
                case "chapter": return .sleep(.endOfChapter)
                default: throw CommandError("\"until\" must be \"episode\" or \"chapter\"")
                }
            }
            guard f.has("minutes") else { throw CommandError("\"sleep\" needs \"minutes\" or \"until\"") }
            return .sleep(.after(seconds: try minutes(f)))
        },
        "sleep.extend": { f throws(CommandError) in .sleepExtend(seconds: try minutes(f)) },
        "sleep.cancel": { _ in .sleepCancel },

        // Alarm
        "alarm.set": { f throws(CommandError) in
            guard let time = f.string("time") else { throw CommandError("\"alarm.set\" needs a time \"time\" (\"HH:MM\")") }
            guard case .array(let values)? = f.fields["days"] else {
                throw CommandError("\"alarm.set\" needs \"days\": weekdays 1 (Monday) to 7 (Sunday)")
            }
            let days = try values.map { value throws(CommandError) in
                guard let day = value.number, day == day.rounded(), (1...7).contains(day) else {
                    throw CommandError("\"days\" must list weekdays 1 (Monday) to 7 (Sunday)")
                }
                return Int(day)
            }
            var podcasts: [Int64]?
            if f.has("podcasts"), !f.isNull("podcasts") {
                guard case .array(let ids)? = f.fields["podcasts"] else {
                    throw CommandError("\"podcasts\" must list podcast ids, or be null for Up Next")
                }
                podcasts = try ids.map { value throws(CommandError) in
                    guard let id = value.number, CommandFields.isID(id) else {
                        throw CommandError("\"podcasts\" must list podcast ids, or be null for Up Next")
                    }
                    return Int64(id)
                }
            }
            return .alarmSet(try Alarm(time: time, days: days, podcasts: podcasts))
        },
        "alarm.cancel": { _ in .alarmCancel },

        // Chapters
        "chapter": { f throws(CommandError) in .chapter(index: try f.index("index")) },
        "chapter.next": { _ in .chapterNext },
        "chapter.previous": { _ in .chapterPrevious },

        // Up Next
        "queue.add": { f throws(CommandError) in
            guard let placement = PlayQueue.Placement(rawValue: f.string("at") ?? "end") else {
                throw CommandError("\"at\" must be \"end\" or \"next\"")
            }
            return .queueAdd(episode: try f.episode(), at: placement)
        },
        "queue.remove": { f throws(CommandError) in .queueRemove(episode: try f.episode()) },
        "queue.move": { f throws(CommandError) in .queueMove(from: try f.index("from"), to: try f.index("to")) },
        "queue.clear": { _ in .queueClear },
        "next": { _ in .next },
        "previous": { _ in .previous },
        "shuffle": { f throws(CommandError) in .shuffle(try f.bool("on")) },
        "repeat": { f throws(CommandError) in
            guard let mode = f.string("mode").flatMap(RepeatMode.init(rawValue:)) else {
                throw CommandError("\"repeat\" needs \"mode\": \"off\", \"one\" or \"all\"")
            }
            return .repeatMode(mode)
        },

        // Named playlists
        "playlist.create": { f throws(CommandError) in
            .playlist(.create(name: try playlistName(f), episodes: try f.episodes(optional: true, limit: PlaylistCommand.maxEpisodesPerCommand)))
        },
        "playlist.rename": { f throws(CommandError) in .playlist(.rename(playlist: try f.id("playlist"), name: try playlistName(f))) },
        "playlist.delete": { f throws(CommandError) in .playlist(.delete(playlist: try f.id("playlist"))) },
        "playlist.add": { f throws(CommandError) in
            .playlist(.add(playlist: try f.id("playlist"), episodes: try f.episodes(optional: false, limit: PlaylistCommand.maxEpisodesPerCommand)))
        },
        "playlist.remove": { f throws(CommandError) in .playlist(.remove(playlist: try f.id("playlist"), episode: try f.id("episode"))) },
        "playlist.move": { f throws(CommandError) in
            .playlist(.move(playlist: try f.id("playlist"), from: try f.index("from"), to: try f.index("to")))
        },
        "playlist.play": { f throws(CommandError) in
            .playlist(.play(playlist: try f.id("playlist"), episode: f.has("episode") ? try f.id("episode") : nil))
        },

        // The Inbox (carried out on the library by the server)
        "inbox.dismiss": { f throws(CommandError) in .inbox(.dismiss(episode: try f.episode())) },
        "inbox.clear": { _ in .inbox(.clear) },

        // Downloads (carried out by the download manager, not the engine)
        "download": { f throws(CommandError) in .download(.download(episode: try f.id("episode"))) },
        "download.cancel": { f throws(CommandError) in .download(.cancel(episode: try f.id("episode"))) },
        "download.retry": { f throws(CommandError) in .download(.retry(episode: try f.id("episode"))) },
        "download.delete": { f throws(CommandError) in .download(.delete(episode: try f.id("episode"))) },
        "download.settings": { f throws(CommandError) in
            let concurrency = try f.optionalCount("concurrency")
            if case .some(nil) = concurrency { throw CommandError("\"concurrency\" must be a whole number") }
            let change = DownloadSettings.Change(concurrency: concurrency ?? nil,
                                                 deletePlayedAfterDays: try f.optionalCount("deletePlayedAfterDays"))
            guard change != DownloadSettings.Change() else {
                throw CommandError("\"download.settings\" needs \"concurrency\" or \"deletePlayedAfterDays\"")
            }
            _ = try DownloadSettings().applying(change) // range errors here, before the manager sees it
            return .download(.settings(change))
        },
        "download.auto": { f throws(CommandError) in
            let podcast = try f.id("podcast")
            guard let newest = try f.optionalCount("newest") else {
                throw CommandError("\"download.auto\" needs \"newest\": a number of episodes, or null (off)")
            }
            _ = try DownloadSettings().settingAutoDownload(podcast: podcast, count: newest)
            return .download(.auto(podcast: podcast, newest: newest))
        },
    ]

    private static func rate(_ f: CommandFields, _ key: String) throws(CommandError) -> Double {
        let value = try f.number(key)
        guard rateRange.contains(value) else { throw CommandError("rate must be between 0.5 and 3") }
        return PlaybackSpeed.snapped(value)
    }

    /// Minutes as sent (fractions allowed: 0.5 is 30 s), returned in seconds.
    private static func minutes(_ f: CommandFields) throws(CommandError) -> Double {
        let value = try f.number("minutes")
        guard value > 0, value * 60 <= SleepTimer.maxSeconds else {
            throw CommandError("\"minutes\" must be more than 0 and at most \(Int(SleepTimer.maxSeconds / 60))")
        }
        return value * 60
    }

    /// A playlist name, cleaned (`PlaylistName`), so a command that decodes carries a name fit to store.
    private static func playlistName(_ f: CommandFields) throws(CommandError) -> String {
        guard let raw = f.string("name") else { throw CommandError("\"\(f.name)\" needs a string \"name\"") }
        return try PlaylistName.clean(raw)
    }
}
