import FoundationEssentials

extension ClientCommand {
    /// Decodes the player's controls — `rate`, `volume`, `settings`, `podcast.speed`, `sleep`,
    /// `sleep.extend`, `sleep.cancel` — or returns nil for any other name.
    static func parseControl(name: String, fields: [String: JSONValue]) throws(CommandError) -> ClientCommand? {
        func number(_ key: String) throws(CommandError) -> Double {
            guard let value = fields[key]?.number, value.isFinite
            else { throw CommandError("\"\(name)\" needs a number \"\(key)\"") }
            return value
        }
        /// A number when the key is there, nil when it is not; anything else is an error.
        func optionalNumber(_ key: String) throws(CommandError) -> Double? {
            fields[key] == nil ? nil : try number(key)
        }
        func rate(_ value: Double) throws(CommandError) -> Double {
            guard rateRange.contains(value) else { throw CommandError("rate must be between 0.5 and 3") }
            return PlaybackSpeed.snapped(value)
        }
        /// Minutes as sent (fractions allowed: 0.5 is 30 s), returned in seconds.
        func minutes() throws(CommandError) -> Double {
            let value = try number("minutes")
            guard value > 0, value * 60 <= SleepTimer.maxSeconds else {
                throw CommandError("\"minutes\" must be more than 0 and at most \(Int(SleepTimer.maxSeconds / 60))")
            }
            return value * 60
        }

        switch name {
        case "rate":
            return .rate(try rate(try number("value")))
        case "volume":
            let value = try number("value")
            guard volumeRange.contains(value) else { throw CommandError("volume must be between 0 and 130") }
            return .volume(value)
        case "settings":
            let change = PlaybackSettings.Change(playedMargin: try optionalNumber("playedMargin"),
                                                 skipBack: try optionalNumber("skipBack"),
                                                 skipForward: try optionalNumber("skipForward"))
            guard change != PlaybackSettings.Change() else {
                throw CommandError("\"settings\" needs \"playedMargin\", \"skipBack\" or \"skipForward\"")
            }
            // Range errors here, so a bad frame is refused before it reaches the engine.
            _ = try PlaybackSettings().applying(change)
            return .settings(change)
        case "podcast.speed":
            guard let id = fields["podcast"]?.number, id == id.rounded(), id > 0, id < 9e15 else {
                throw CommandError("\"podcast.speed\" needs a podcast id \"podcast\"")
            }
            switch fields["rate"] {
            case nil, .null?: return .podcastSpeed(podcast: Int64(id), rate: nil)
            default: return .podcastSpeed(podcast: Int64(id), rate: try rate(try number("rate")))
            }
        case "sleep":
            if let until = fields["until"] {
                switch until.string {
                case "episode": return .sleep(.endOfEpisode)
                case "chapter": return .sleep(.endOfChapter)
                default: throw CommandError("\"until\" must be \"episode\" or \"chapter\"")
                }
            }
            guard fields["minutes"] != nil else { throw CommandError("\"sleep\" needs \"minutes\" or \"until\"") }
            return .sleep(.after(seconds: try minutes()))
        case "sleep.extend":
            return .sleepExtend(seconds: try minutes())
        case "sleep.cancel":
            return .sleepCancel
        default:
            return nil
        }
    }
}
