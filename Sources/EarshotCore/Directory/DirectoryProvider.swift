/// Where a podcast search goes: Apple's iTunes Search API (no key; the default) or Podcast Index
/// (with the listener's key and secret). The raw values are the wire's `provider=`.
public enum DirectoryProvider: String, Sendable, Equatable, CaseIterable, Codable {
    case itunes
    case podcastindex

    /// The public address of each service; `--itunes-url` / `--podcastindex-url` point elsewhere.
    public var defaultBaseURL: String {
        switch self {
        case .itunes: "https://itunes.apple.com"
        case .podcastindex: "https://api.podcastindex.org"
        }
    }
}
