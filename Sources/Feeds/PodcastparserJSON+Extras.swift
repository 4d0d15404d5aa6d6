import EarshotCore
import FoundationEssentials

extension PodcastparserJSON {
    /// Earshot's own reading of the podcast, beside podcastparser's keys.
    static func extras(of content: FeedContent) -> JSONValue {
        .object([
            "author": .string(content.author),
            "summary": .string(content.summary),
            "artwork": content.artworkURL.map(JSONValue.string) ?? .null,
            "link": content.link.map(JSONValue.string) ?? .null,
            "newFeedURL": content.newFeedURL.map(JSONValue.string) ?? .null,
            "warnings": .array(content.warnings.map(JSONValue.string)),
            "details": encoded(content.details),
        ])
    }

    /// Earshot's own reading of an episode, beside podcastparser's keys.
    static func extras(of item: FeedItem) -> JSONValue {
        .object([
            "guid": .string(item.guid),
            "title": .string(item.title),
            "summary": .string(item.summary),
            "enclosure": .object([
                "url": .string(item.enclosureURL),
                "type": .string(item.enclosureType),
                "length": .number(Double(item.enclosureLength)),
            ]),
            "duration": .number(item.duration),
            "published": item.published.map { .number($0.timeIntervalSince1970) } ?? .null,
            "artwork": item.artworkURL.map(JSONValue.string) ?? .null,
            "link": item.link.map(JSONValue.string) ?? .null,
            "details": details(item.details),
        ])
    }

    /// An episode's details as their `Codable` form makes them (`encoded(_:)`; a test holds the two
    /// together on every feed), built directly: the generic encoder was a fifth of `earshot parse
    /// --json`'s time on a 60,000-episode feed. The lists that are rare and deep go the generic way.
    static func details(_ details: EpisodeDetails) -> JSONValue {
        func list<Element: Encodable>(_ items: [Element]) -> JSONValue { items.isEmpty ? .array([]) : encoded(items) }
        var json: [String: JSONValue] = [
            "subtitle": .string(details.subtitle),
            "author": .string(details.author),
            "block": .bool(details.block),
            "enclosures": .array(details.enclosures.map { enclosure in
                .object(["url": .string(enclosure.url), "type": .string(enclosure.type),
                         "length": .number(Double(enclosure.length))])
            }),
            "chapters": list(details.chapters),
            "transcripts": list(details.transcripts),
            "persons": list(details.persons),
            "soundbites": list(details.soundbites),
            "alternateEnclosures": list(details.alternateEnclosures),
            "notes": .array(details.notes.nodes.map(richText)),
        ]
        json["explicit"] = details.explicit.map(JSONValue.bool)
        json["season"] = details.season.map { .number(Double($0)) }
        json["number"] = details.number.map { .number(Double($0)) }
        json["type"] = details.type.map(JSONValue.string)
        json["chaptersURL"] = details.chaptersURL.map(JSONValue.string)
        json["chaptersType"] = details.chaptersType.map(JSONValue.string)
        json["paymentURL"] = details.paymentURL.map(JSONValue.string)
        return .object(json)
    }

    /// A node of show notes as `RichText`'s `Codable` form makes it.
    static func richText(_ node: RichText) -> JSONValue {
        switch node {
        case .text(let text):
            return .string(text)
        case .element(let tag, let attributes, let children):
            var json: [String: JSONValue] = ["t": .string(tag)]
            if !attributes.isEmpty { json["a"] = .object(attributes.mapValues(JSONValue.string)) }
            if !children.isEmpty { json["c"] = .array(children.map(richText)) }
            return .object(json)
        }
    }

    /// A model value as it goes over the wire (its `Codable` form), with no bytes in between.
    static func encoded<Value: Encodable>(_ value: Value) -> JSONValue {
        (try? JSONValueEncoder().encode(value)) ?? .null
    }
}
