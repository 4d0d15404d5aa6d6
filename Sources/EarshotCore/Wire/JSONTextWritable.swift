/// A value that writes its own JSON text (compact, members in any order) rather than going through
/// `Encodable`: what the lists of a thousand episodes are, which the generic encoder made at 27–48
/// MB/s (`HTTPResponse.json` takes this way when it can). Its text must read back as the value its
/// `Encodable` form gives; each conformance has a test that says so.
public protocol JSONTextWritable: Encodable {
    func writeJSON(into writer: inout JSONTextWriter) throws
}

extension JSONTextWriter {
    /// `value` through its own writer when it has one, else its `Encodable` form.
    public mutating func writeEncodable<Value: Encodable>(_ value: Value) throws {
        if let direct = value as? any JSONTextWritable {
            try direct.writeJSON(into: &self)
        } else {
            write(try JSONValueEncoder().encode(value), depth: 0)
        }
    }

    /// An array of `items`, each written by its own writer.
    public mutating func writeArray<Item: JSONTextWritable>(of items: [Item]) throws {
        openArray()
        for (index, item) in items.enumerated() {
            elementStart(depth: 1, first: index == 0)
            try item.writeJSON(into: &self)
        }
        closeArray(depth: 0, empty: items.isEmpty)
    }
}

extension JSONTextWriter {
    /// A member of a compact object (`first` tracks the separator): a string, a number, a flag, or
    /// a string or `null`.
    public mutating func member(_ key: StaticString, _ value: String, first: inout Bool) {
        self.key(key, depth: 1, first: &first)
        writeString(value)
    }

    public mutating func member(_ key: StaticString, _ value: Double, first: inout Bool) {
        self.key(key, depth: 1, first: &first)
        writeNumber(value)
    }

    public mutating func member(_ key: StaticString, _ value: Bool, first: inout Bool) {
        self.key(key, depth: 1, first: &first)
        writeBool(value)
    }

    public mutating func member(_ key: StaticString, orNull value: String?, first: inout Bool) {
        self.key(key, depth: 1, first: &first)
        if let value { writeString(value) } else { writeNull() }
    }

    /// `{"<headKey>": head, "episodes": [...]}`: a podcast or a playlist with its episodes.
    public mutating func writeEpisodes<Head: Encodable>(of head: Head, as headKey: StaticString, _ episodes: [Episode]) throws {
        var first = true
        openObject()
        key(headKey, depth: 1, first: &first)
        try writeEncodable(head)
        key("episodes", depth: 1, first: &first)
        try writeArray(of: episodes)
        closeObject(depth: 0, empty: false)
    }
}

extension Episode: JSONTextWritable {
    /// The keys and values of `encode(to:)`, written directly.
    public func writeJSON(into writer: inout JSONTextWriter) throws {
        var first = true
        writer.openObject()
        writer.member("id", Double(id), first: &first)
        writer.member("podcastId", Double(podcastID), first: &first)
        writer.member("podcast", podcastTitle, first: &first)
        writer.member("guid", guid, first: &first)
        writer.member("title", title, first: &first)
        writer.member("summary", summary, first: &first)
        writer.member("url", mediaURL, first: &first)
        writer.member("mimeType", mediaType, first: &first)
        writer.member("length", Double(mediaLength), first: &first)
        writer.member("duration", duration, first: &first)
        writer.key("published", depth: 1, first: &first)
        if let published { writer.writeNumber(published.timeIntervalSince1970) } else { writer.writeNull() }
        writer.member("artwork", orNull: artworkURL, first: &first)
        writer.member("position", position, first: &first)
        writer.member("played", played, first: &first)
        writer.member("inbox", inInbox, first: &first)
        if let details {
            writer.key("details", depth: 1, first: &first)
            try writer.writeEncodable(details)
        }
        writer.closeObject(depth: 0, empty: false)
    }
}
