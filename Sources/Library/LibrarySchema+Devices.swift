extension LibrarySchema {
    /// Issue 7: devices paired as remotes. Only the SHA-256 of each device's token is kept
    /// (`token_hash`, hex): the token itself lives in the device's cookie alone. Revoking deletes the row.
    static let devices = """
        CREATE TABLE devices(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL,
            last_seen_at REAL NOT NULL
        );
        """
}
