import EarshotCore
import Feeds
import Foundation
import Library
import Mustache

/// The library's subscriptions as an OPML 2.0 file (`Templates/opml.mustache`): what `GET /api/opml`
/// downloads and `earshot export` prints. Each outline carries `text` and `title` (the show's name),
/// `type="rss"`, `xmlUrl` and, when the feed names one, `htmlUrl`.
///
/// Only http and https feeds are written: the bundled demo lives at a path on this server, which means
/// nothing to another app.
public enum OPMLExport {
    /// The name browsers save the download under.
    public static let fileName = "earshot-subscriptions.opml"
    /// The media type OPML is served with.
    public static let contentType = "text/x-opml; charset=utf-8"
    /// The head's `<title>`.
    public static let title = "Earshot subscriptions"

    /// Reads every subscription from `store` and renders them, ordered as the library lists them (by title).
    public static func library(_ store: LibraryStore, templates: MustacheLibrary, date: Date = Date()) async throws -> String {
        try render(try await store.podcasts(), templates: templates, date: date)
    }

    /// The same, loading the templates from `templatesDirectory` (the project's `Templates/`): for the CLI,
    /// which runs no server.
    public static func library(_ store: LibraryStore, templatesDirectory: URL, date: Date = Date()) async throws -> String {
        try await library(store, templates: try MustacheLibrary(directory: templatesDirectory), date: date)
    }

    /// Renders `podcasts` as OPML 2.0 with `date` as `dateCreated`. Throws when the library of templates
    /// holds no `opml` template.
    public static func render(_ podcasts: [Podcast], templates: MustacheLibrary, date: Date = Date()) throws -> String {
        let feeds: [MustacheValue] = podcasts.compactMap { podcast in
            let url = podcast.feedURL
            guard OPMLParser.rejection(ofFeedURL: url) == nil else { return nil }
            let name = xmlText(podcast.title)
            let page = podcast.link.map(xmlText).flatMap { $0.isEmpty ? nil : $0 }
            return ["text": .string(name.isEmpty ? xmlText(url) : name), "xmlUrl": .string(xmlText(url)),
                    "htmlUrl": page.map(MustacheValue.string) ?? .null]
        }
        return try templates.render("opml", ["title": .string(title), "dateCreated": .string(rfc822(date)),
                                             "feeds": .array(feeds)])
    }

    /// `date` as RFC 822 wants it in `dateCreated`: "Tue, 10 Mar 2026 09:00:00 GMT".
    static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// `text` with whitespace runs folded to one space (an attribute cannot keep a newline anyway) and the
    /// characters XML 1.0 forbids even as references (C0 controls, U+FFFE, U+FFFF) removed, so no feed
    /// title can make the file unreadable. Escaping is the template's job.
    static func xmlText(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            guard scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF else { continue }
            if pendingSpace { result.append(" "); pendingSpace = false }
            result.append(scalar)
        }
        return String(result)
    }
}
