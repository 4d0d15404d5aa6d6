import EarshotCore

extension PodcastparserJSON {
    /// Writes `episode(item)`'s JSON straight into `writer` (pretty, keys sorted) at `depth`: no
    /// dictionary built, hashed and sorted for each of a 60,000-episode feed's episodes and their
    /// parts. Members are written in the byte order of their keys, by hand; a test holds the text
    /// against `episode(item)`'s on every feed.
    static func writeEpisode(_ item: FeedItem, _ identity: (guid: String, title: String, description: String),
                             into writer: inout JSONTextWriter, depth: Int) {
        let details = item.details
        let inner = depth + 1
        var first = true
        writer.openObject()
        if !details.chapters.isEmpty {
            writer.key("chapters", depth: inner, first: &first)
            writer.write(.array(details.chapters.map(chapter)), depth: inner)
        }
        if let url = details.chaptersURL {
            writer.key("chapters_json_url", depth: inner, first: &first)
            writer.writeString(url)
        }
        writer.key("description", depth: inner, first: &first)
        writer.writeString(identity.description)
        if let html = item.rawHTML {
            writer.key("description_html", depth: inner, first: &first)
            writer.writeString(html)
        }
        writer.key("earshot", depth: inner, first: &first)
        writeExtras(item, into: &writer, depth: inner)
        writer.key("enclosures", depth: inner, first: &first)
        writeArray(details.enclosures, into: &writer, depth: inner) { enclosure, writer, depth in
            var first = true
            writer.openObject()
            writer.key("file_size", depth: depth + 1, first: &first)
            writer.writeNumber(Double(enclosure.length > 0 ? enclosure.length : -1))
            writer.key("mime_type", depth: depth + 1, first: &first)
            writer.writeString(enclosure.type.contains("/") ? enclosure.type : "application/octet-stream")
            writer.key("url", depth: depth + 1, first: &first)
            writer.writeString(enclosure.url)
            writer.closeObject(depth: depth, empty: false)
        }
        if let url = item.artworkURL {
            writer.key("episode_art_url", depth: inner, first: &first)
            writer.writeString(url)
        }
        if let explicit = details.explicit {
            writer.key("explicit", depth: inner, first: &first)
            writer.writeBool(explicit)
        }
        writer.key("guid", depth: inner, first: &first)
        writer.writeString(identity.guid)
        if !details.author.isEmpty {
            writer.key("itunes_author", depth: inner, first: &first)
            writer.writeString(details.author)
        }
        writer.key("link", depth: inner, first: &first)
        writer.writeString(item.link ?? item.asWritten?.permalink ?? "")
        if let number = details.number {
            writer.key("number", depth: inner, first: &first)
            writer.writeNumber(Double(number))
        }
        writer.key("payment_url", depth: inner, first: &first)
        writeOptional(details.paymentURL, into: &writer)
        if !details.persons.isEmpty {
            writer.key("persons", depth: inner, first: &first)
            writer.write(.array(details.persons.map(person)), depth: inner)
        }
        writer.key("published", depth: inner, first: &first)
        writer.writeNumber(Double(item.published.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0))
        if let season = details.season {
            writer.key("season", depth: inner, first: &first)
            writer.writeNumber(Double(season))
        }
        if !details.subtitle.isEmpty {
            writer.key("subtitle", depth: inner, first: &first)
            writer.writeString(details.subtitle)
        }
        writer.key("title", depth: inner, first: &first)
        writer.writeString(identity.title)
        writer.key("total_time", depth: inner, first: &first)
        writer.writeNumber(item.duration.rounded(.towardZero))
        if let transcript = details.transcripts.last {
            writer.key("transcript_url", depth: inner, first: &first)
            writer.writeString(transcript.url)
        }
        if let type = details.type {
            writer.key("type", depth: inner, first: &first)
            writer.writeString(type)
        }
        writer.closeObject(depth: depth, empty: false)
    }

    /// `extras(of: item)`, written.
    private static func writeExtras(_ item: FeedItem, into writer: inout JSONTextWriter, depth: Int) {
        let inner = depth + 1
        var first = true
        writer.openObject()
        writer.key("artwork", depth: inner, first: &first)
        writeOptional(item.artworkURL, into: &writer)
        writer.key("details", depth: inner, first: &first)
        writeDetails(item.details, into: &writer, depth: inner)
        writer.key("duration", depth: inner, first: &first)
        writer.writeNumber(item.duration)
        writer.key("enclosure", depth: inner, first: &first)
        writeEnclosure(url: item.enclosureURL, type: item.enclosureType, length: item.enclosureLength, into: &writer, depth: inner)
        writer.key("guid", depth: inner, first: &first)
        writer.writeString(item.guid)
        writer.key("link", depth: inner, first: &first)
        writeOptional(item.link, into: &writer)
        writer.key("published", depth: inner, first: &first)
        if let published = item.published { writer.writeNumber(published.timeIntervalSince1970) } else { writer.writeNull() }
        writer.key("summary", depth: inner, first: &first)
        writer.writeString(item.summary)
        writer.key("title", depth: inner, first: &first)
        writer.writeString(item.title)
        writer.closeObject(depth: depth, empty: false)
    }

    /// `details(_:)`, written.
    private static func writeDetails(_ details: EpisodeDetails, into writer: inout JSONTextWriter, depth: Int) {
        let inner = depth + 1
        var first = true
        func list<Element: Encodable>(_ key: StaticString, _ items: [Element], into writer: inout JSONTextWriter) {
            writer.key(key, depth: inner, first: &first)
            if items.isEmpty { writer.write(.array([]), depth: inner) } else { writer.write(encoded(items), depth: inner) }
        }
        func optional(_ key: StaticString, _ value: String?, into writer: inout JSONTextWriter) {
            guard let value else { return }
            writer.key(key, depth: inner, first: &first)
            writer.writeString(value)
        }
        func optional(_ key: StaticString, _ value: Int?, into writer: inout JSONTextWriter) {
            guard let value else { return }
            writer.key(key, depth: inner, first: &first)
            writer.writeNumber(Double(value))
        }
        writer.openObject()
        list("alternateEnclosures", details.alternateEnclosures, into: &writer)
        writer.key("author", depth: inner, first: &first)
        writer.writeString(details.author)
        writer.key("block", depth: inner, first: &first)
        writer.writeBool(details.block)
        list("chapters", details.chapters, into: &writer)
        optional("chaptersType", details.chaptersType, into: &writer)
        optional("chaptersURL", details.chaptersURL, into: &writer)
        writer.key("enclosures", depth: inner, first: &first)
        writeArray(details.enclosures, into: &writer, depth: inner) { enclosure, writer, depth in
            writeEnclosure(url: enclosure.url, type: enclosure.type, length: enclosure.length, into: &writer, depth: depth)
        }
        if let explicit = details.explicit {
            writer.key("explicit", depth: inner, first: &first)
            writer.writeBool(explicit)
        }
        writer.key("notes", depth: inner, first: &first)
        writeArray(details.notes.nodes, into: &writer, depth: inner, element: writeRichText)
        optional("number", details.number, into: &writer)
        optional("paymentURL", details.paymentURL, into: &writer)
        list("persons", details.persons, into: &writer)
        optional("season", details.season, into: &writer)
        list("soundbites", details.soundbites, into: &writer)
        writer.key("subtitle", depth: inner, first: &first)
        writer.writeString(details.subtitle)
        list("transcripts", details.transcripts, into: &writer)
        optional("type", details.type, into: &writer)
        writer.closeObject(depth: depth, empty: false)
    }

    /// A node of show notes as `richText(_:)` gives it: keys `a`, `c`, `t`.
    private static func writeRichText(_ node: RichText, into writer: inout JSONTextWriter, depth: Int) {
        switch node {
        case .text(let text):
            writer.writeString(text)
        case .element(let tag, let attributes, let children):
            var first = true
            writer.openObject()
            if !attributes.isEmpty {
                writer.key("a", depth: depth + 1, first: &first)
                writer.write(.object(attributes.mapValues(JSONValue.string)), depth: depth + 1)
            }
            if !children.isEmpty {
                writer.key("c", depth: depth + 1, first: &first)
                writeArray(children, into: &writer, depth: depth + 1, element: writeRichText)
            }
            writer.key("t", depth: depth + 1, first: &first)
            writer.writeString(tag)
            writer.closeObject(depth: depth, empty: false)
        }
    }

    /// `{"length", "type", "url"}`: an enclosure in Earshot's model.
    private static func writeEnclosure(url: String, type: String, length: Int64, into writer: inout JSONTextWriter, depth: Int) {
        var first = true
        writer.openObject()
        writer.key("length", depth: depth + 1, first: &first)
        writer.writeNumber(Double(length))
        writer.key("type", depth: depth + 1, first: &first)
        writer.writeString(type)
        writer.key("url", depth: depth + 1, first: &first)
        writer.writeString(url)
        writer.closeObject(depth: depth, empty: false)
    }

    private static func writeOptional(_ value: String?, into writer: inout JSONTextWriter) {
        if let value { writer.writeString(value) } else { writer.writeNull() }
    }

    /// An array at `depth`, each element written by `element` at `depth + 1`.
    private static func writeArray<Element>(_ items: [Element], into writer: inout JSONTextWriter, depth: Int,
                                            element: (Element, inout JSONTextWriter, Int) -> Void) {
        writer.openArray()
        for (index, item) in items.enumerated() {
            writer.elementStart(depth: depth + 1, first: index == 0)
            element(item, &writer, depth + 1)
        }
        writer.closeArray(depth: depth, empty: items.isEmpty)
    }
}
