/// Which Earshot this is: what `--version` prints and what every request to a feed server says.
public enum Earshot {
    /// The release, `MAJOR.MINOR.PATCH`.
    public static let version = "0.3.0"
    /// `Earshot/VERSION`: publishers count their listeners by it, so it names the app and nothing else.
    public static let userAgent = "Earshot/\(version)"
}
