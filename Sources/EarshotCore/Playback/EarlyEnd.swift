import FoundationEssentials

/// mpv reports a stream whose connection dropped (and whose resumed requests found nothing more)
/// as an ordinary end of file. This tells the two apart, so a dropped episode is reported and
/// left unplayed instead of being marked heard.
public enum EarlyEnd {
    /// An end counts as early when it comes before this share of the episode…
    public static let share = 0.9
    /// …and more than this many seconds before its end (durations of VBR files are estimates).
    public static let slack: Double = 30

    /// Why an end of file at `position` of `duration` seconds is not the episode's end, or nil
    /// when it is (or the length is unknown). Only streams (`isRemote`) drop: a local file that
    /// ends early is simply shorter than its header says.
    public static func reason(position: Double, duration: Double, isRemote: Bool) -> String? {
        guard isRemote, duration > 0, position.isFinite, position >= 0,
              position < duration * share, duration - position > slack else { return nil }
        return "the stream ended at \(clock(position)) of \(clock(duration)) (the connection dropped)"
    }

    /// "1:05:03", "4:07".
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
