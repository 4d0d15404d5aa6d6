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

extension Episode: JSONTextWritable {
    /// The keys and values of `encode(to:)`, written directly.
    public func writeJSON(into writer: inout JSONTextWriter) throws {
        var first = true
        writer.openObject()
        writer.key("id", depth: 1, first: &first)
        writer.writeNumber(Double(id))
        writer.key("podcastId", depth: 1, first: &first)
        writer.writeNumber(Double(podcastID))
        writer.key("podcast", depth: 1, first: &first)
        writer.writeString(podcastTitle)
        writer.key("guid", depth: 1, first: &first)
        writer.writeString(guid)
        writer.key("title", depth: 1, first: &first)
        writer.writeString(title)
        writer.key("summary", depth: 1, first: &first)
        writer.writeString(summary)
        writer.key("url", depth: 1, first: &first)
        writer.writeString(mediaURL)
        writer.key("mimeType", depth: 1, first: &first)
        writer.writeString(mediaType)
        writer.key("length", depth: 1, first: &first)
        writer.writeNumber(Double(mediaLength))
        writer.key("duration", depth: 1, first: &first)
        writer.writeNumber(duration)
        writer.key("published", depth: 1, first: &first)
        if let published { writer.writeNumber(published.timeIntervalSince1970) } else { writer.writeNull() }
        writer.key("artwork", depth: 1, first: &first)
        if let artworkURL { writer.writeString(artworkURL) } else { writer.writeNull() }
        writer.key("position", depth: 1, first: &first)
        writer.writeNumber(position)
        writer.key("played", depth: 1, first: &first)
        writer.writeBool(played)
        writer.key("inbox", depth: 1, first: &first)
        writer.writeBool(inInbox)
        if let details {
            writer.key("details", depth: 1, first: &first)
            try writer.writeEncodable(details)
        }
        writer.closeObject(depth: 0, empty: false)
    }
}
