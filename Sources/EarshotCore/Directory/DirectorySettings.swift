/// Which directory answers and with whose Podcast Index key: the key the listener saved in the
/// web UI wins over the environment's (`EARSHOT_PODCASTINDEX_KEY` / `_SECRET`), being the more
/// recent wish; with either, Podcast Index is the default, else iTunes (which needs no key).
/// Pure: the server keeps one and stores `saved` in the library's settings.
public struct DirectorySettings: Sendable, Equatable {
    /// Saved from the web UI (`PUT /api/directory/settings`).
    public var saved: PodcastIndexCredentials?
    /// From the environment at start.
    public var environment: PodcastIndexCredentials?

    public init(saved: PodcastIndexCredentials? = nil, environment: PodcastIndexCredentials? = nil) {
        self.saved = saved; self.environment = environment
    }

    /// The key and secret Podcast Index requests are signed with.
    public var credentials: PodcastIndexCredentials? { saved ?? environment }

    /// The provider when a request names none.
    public var defaultProvider: DirectoryProvider { credentials == nil ? .itunes : .podcastindex }

    /// The provider a request asked for (`provider=`), or the default; a name that is not a
    /// provider, or Podcast Index without a key, is refused with a message for the listener.
    public func provider(named name: String?) -> Result<DirectoryProvider, DirectorySettingsError> {
        guard let name, !name.isEmpty else { return .success(defaultProvider) }
        guard let provider = DirectoryProvider(rawValue: name) else {
            return .failure(.init("provider is \"itunes\" or \"podcastindex\", not \"\(name)\""))
        }
        if provider == .podcastindex, credentials == nil {
            return .failure(.init("Podcast Index needs an API key and secret: enter them in the directory settings (or set EARSHOT_PODCASTINDEX_KEY and EARSHOT_PODCASTINDEX_SECRET)"))
        }
        return .success(provider)
    }

    /// What a listener saves: both filled sets the key, both empty forgets it; one without the
    /// other is refused (a key alone cannot sign anything). Whitespace around them is dropped.
    public static func edit(key: String, secret: String) -> Result<PodcastIndexCredentials?, DirectorySettingsError> {
        // Pasted keys often bring a line end along: whitespace and newlines around them go.
        func clean(_ text: String) -> String {
            String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        let key = clean(key), secret = clean(secret)
        switch (key.isEmpty, secret.isEmpty) {
        case (true, true): return .success(nil)
        case (false, false):
            guard key.count <= 200, secret.count <= 200, !(key + secret).contains(where: \.isNewline) else {
                return .failure(.init("that is not a Podcast Index key and secret (each is one line of at most 200 characters)"))
            }
            return .success(PodcastIndexCredentials(key: key, secret: secret))
        case (false, true): return .failure(.init("the Podcast Index secret is missing"))
        case (true, false): return .failure(.init("the Podcast Index key is missing"))
        }
    }

    /// What browsers see (`GET /api/directory/settings`): never the secret, and of the key only
    /// its first four characters, enough to recognise it.
    public var summary: Summary {
        let source: Summary.Source? = saved != nil ? .settings : environment != nil ? .environment : nil
        let key = credentials.map { String($0.key.prefix(4)) + "…" }
        return Summary(provider: defaultProvider,
                       podcastIndex: .init(configured: credentials != nil, key: key, from: source))
    }

    /// The settings as the wire carries them.
    public struct Summary: Sendable, Equatable, Encodable {
        public enum Source: String, Sendable, Encodable { case settings, environment }
        public struct PodcastIndex: Sendable, Equatable, Encodable {
            public var configured: Bool
            public var key: String?
            public var from: Source?
            public init(configured: Bool, key: String?, from: Source?) { self.configured = configured; self.key = key; self.from = from }
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(configured, forKey: .configured)
                try container.encode(key, forKey: .key) // null, not absent: the client reads one shape
                try container.encode(from, forKey: .from)
            }
            enum CodingKeys: String, CodingKey { case configured, key, from }
        }
        public var provider: DirectoryProvider
        public var podcastIndex: PodcastIndex
    }
}

/// A directory setting or request the listener must change, in words for them.
public struct DirectorySettingsError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
