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
            "details": encoded(item.details),
        ])
    }

    /// A model value as it goes over the wire (its `Codable` form), with no bytes in between.
    static func encoded<Value: Encodable>(_ value: Value) -> JSONValue {
        (try? JSONValueEncoder().encode(value)) ?? .null
    }
}
