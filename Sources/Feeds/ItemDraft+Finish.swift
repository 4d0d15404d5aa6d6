import EarshotCore
import FoundationEssentials

extension ItemDraft {
    /// Which raw show notes feed the summary and the sanitized notes.
    enum NotesSource { case plain, html, atomSummary }

    /// Appends the finished item to `items` and says, when its notes are HTML, where that HTML is (the
    /// caller sanitizes it into `details.notes`); appends nothing when the item has nothing to play
    /// (unless such items are wanted) or nothing that could identify it across refreshes (no guid,
    /// enclosure or link).
    ///
    /// The draft's title, link, episode enclosure and details move into the item (`take`, `swap`): copied,
    /// each string and array was retained here and released again with the draft. The item goes
    /// straight into the list: returned in an optional and bound by the caller, it was copied twice
    /// more. The draft is done with afterwards; only its notes buffers are reused.
    mutating func finish(keepingItemsWithoutEnclosure keepAll: Bool, baseURL: URL,
                         appendingTo items: inout [FeedItem]) -> (appended: Bool, html: NotesSource?) {
        // The first enclosure among the most playable ones is the episode; an image or a document is not.
        if media == nil, !keepAll { return (false, nil) }
        // A permalink is resolved only where it is used: as the link when the guid is a web address, and
        // as written (`earshot parse --json`). A guid that is no address ("podlove-2020-…", a UUID) went
        // through Foundation's URL resolution for nothing: 9,500 instructions an item.
        let permalinkIsLink = guidIsPermaLink && link == nil && guid.map(FeedValues.isWebAddress) == true
        let permalink = guidIsPermaLink && (permalinkIsLink || keepsSource)
            ? guid.flatMap { FeedValues.resolve($0, against: baseURL) } : nil
        guard let identity = guid ?? media?.url ?? details.enclosures.first?.url ?? link else { return (false, nil) }

        // A plain text that is really HTML (an `itunes:summary` full of tags) counts as HTML.
        let plainIsHTML = hasPlain && notes.plain.withUnsafeBufferPointer(FeedValues.looksLikeHTML)
        let htmlSource: NotesSource? = hasHTML && !isBlank(.html) ? .html
            : plainIsHTML && !isBlank(.plain) ? .plain
            : hasAtomSummary && atomSummaryIsHTML ? .atomSummary : nil
        let plainSource: NotesSource? = hasPlain && !plainIsHTML && !isBlank(.plain) ? .plain : nil
        let summarySource = plainSource ?? htmlSource ?? (hasAtomSummary ? .atomSummary : nil)
        let summary = summarySource.map { source in withBytes(source) { FeedValues.plainText(bytes: $0) } }

        let media = self.media.take()
        let url = media?.url ?? ""
        // Made in the list and finished there: made in a variable, it was copied on its way in.
        items.append(FeedItem(
            guid: identity,
            title: title.take() ?? Self.fileName(url.isEmpty ? details.enclosures.first?.url ?? "" : url) ?? "",
            summary: summary ?? "",
            enclosureURL: url,
            enclosureType: media?.type ?? "",
            enclosureLength: max(media?.length ?? 0, 0),
            duration: duration,
            published: pubDate ?? otherDate ?? updated,
            artworkURL: FeedValues.imageAddress(image ?? thumbnail, base: baseURL),
            // A guid that is an absolute web address and says it is a link is the episode's page.
            link: link.take() ?? (permalinkIsLink ? permalink : nil)))
        let last = items.count - 1
        swap(&items[last].details, &details)
        if htmlSource == nil { items[last].details.notes = ShowNotes.paragraphs(plainText: items[last].summary) }
        if keepsSource {
            let raw: NotesSource? = hasHTML ? .html : plainIsHTML ? .plain : nil
            items[last].rawHTML = raw.map { source in withBytes(source) { FeedValues.trimmed(bytes: $0) ?? "" } }
            items[last].asWritten = FeedItemAsWritten(
                guid: guid, permalink: permalink, title: writtenTitle,
                description: hasPlain && !plainIsHTML ? String(decoding: notes.plain, as: UTF8.self) : nil)
        }
        return (true, htmlSource)
    }

    /// Appends the finished item with its notes sanitized (`finish`, then `ShowNotes`) to `items`;
    /// false when there is none.
    mutating func finish(keepingItemsWithoutEnclosure keepAll: Bool, baseURL: URL, appendingTo items: inout [FeedItem],
                         scratch: inout HTMLSanitizer.Scratch) -> Bool {
        let (appended, html) = finish(keepingItemsWithoutEnclosure: keepAll, baseURL: baseURL, appendingTo: &items)
        if appended, let html {
            items[items.count - 1].details.notes = withBytes(html) { ShowNotes.sanitize(bytes: $0, baseURL: baseURL, reusing: &scratch) }
        }
        return appended
    }

    /// The finished item with its notes sanitized, or nil (`FinishingLine`, an item at a time).
    mutating func finished(keepingItemsWithoutEnclosure keepAll: Bool, baseURL: URL,
                           scratch: inout HTMLSanitizer.Scratch) -> FeedItem? {
        var one: [FeedItem] = []
        guard finish(keepingItemsWithoutEnclosure: keepAll, baseURL: baseURL, appendingTo: &one, scratch: &scratch) else { return nil }
        return one.removeLast()
    }

    func withBytes<R>(_ source: NotesSource, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch source {
        case .plain: return notes.plain.withUnsafeBufferPointer(body)
        case .html:
            if let htmlInDocument { return body(htmlInDocument.bytes) }
            return notes.html.withUnsafeBufferPointer(body)
        case .atomSummary: return notes.atomSummary.withUnsafeBufferPointer(body)
        }
    }

    private func isBlank(_ source: NotesSource) -> Bool { withBytes(source) { $0.isBlank } }

    /// "episode-12" for ".../episode-12.mp3?x=1": a title of last resort, as podcastparser does.
    static func fileName(_ url: String) -> String? {
        guard !url.isEmpty, let parsed = URL(string: url) else { return nil }
        let name = parsed.deletingPathExtension().lastPathComponent
        return name.isEmpty || name == "/" ? nil : name
    }
}
