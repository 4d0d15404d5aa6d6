import EarshotCore

extension LibraryStore {
    /// The artwork address (a podcast's or an episode's own) whose `ArtworkAddress.key` is `key`,
    /// or nil when the library has none. Reads every distinct address once (a few ms for 100 000
    /// episodes); the artwork cache asks only when it does not know a key yet.
    public func artworkURL(forKey key: String) throws -> String? {
        let sql = """
            SELECT artwork_url FROM podcasts WHERE artwork_url IS NOT NULL AND artwork_url != ''
            UNION SELECT artwork_url FROM episodes WHERE artwork_url IS NOT NULL AND artwork_url != ''
            """
        var found: String?
        _ = try database.fetchAll(sql) { row in
            if found == nil {
                let url = row.string(at: 0)
                if ArtworkAddress.key(for: url) == key { found = url }
            }
        }
        return found
    }
}
