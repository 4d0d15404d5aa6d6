import EarshotCore
import FoundationEssentials

extension FeedBuilder {
    /// Reads the attributes of the element the rules matched (`source`).
    mutating func store(_ field: AttributeField, attributes source: some FeedElementSource) {
        switch field {
        case .base:
            if let base = source.attribute("xml:base") { rebase(base) }
        case .channelImage:
            setImage(source.attribute("href"))
        case .channelLink:
            storeChannelLink(source)
        case .category:
            // A category with no text still holds its subcategories (podcastparser keeps it as "").
            details.categories.append([source.attribute("text").map(FeedValues.squashedWhitespace) ?? ""])
        case .subcategory:
            if let text = source.attribute("text").map(FeedValues.squashedWhitespace), !text.isEmpty,
               !details.categories.isEmpty {
                details.categories[details.categories.count - 1].append(text)
            }
        case .funding:
            pendingFunding = source.attribute("url").flatMap { FeedValues.resolve($0, against: baseURL) }
                .map { FeedLink(url: $0) }
        case .channelPerson:
            Self.person(source, baseURL: baseURL, into: &pendingPerson)
        default:
            item?.store(field, attributes: source, baseURL: baseURL)
        }
    }

    /// `<atom:link>` on the channel: paging (RFC 5005), payment, or the podcast's web page. As in
    /// podcastparser, only a link that says it is HTML (`type="text/html"`) names the web page: the
    /// others are the feed itself, hubs and alternate formats.
    private mutating func storeChannelLink(_ source: some FeedElementSource) {
        let rel = source.attribute("rel")?.trimmingASCIIWhitespace().asciiLowercased() ?? "alternate"
        guard let href = source.attribute("href").flatMap({ FeedValues.resolve($0, against: baseURL) }) else { return }
        switch rel {
        case "first": details.pageFirstURL = details.pageFirstURL ?? href
        case "next": details.pageNextURL = details.pageNextURL ?? href
        case "payment": details.paymentURL = details.paymentURL ?? href
        case "alternate", "self":
            if source.attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() == "text/html" { setLink(href) }
        default: break
        }
    }

    /// A `podcast:person` from its attributes; the name (its text) comes later. Role and group are
    /// case-insensitive in the namespace's taxonomy, so they are kept lowercased.
    ///
    /// Made where it is kept (`pending`): made and then stored, each person was copied (five strings
    /// retained) and the original released.
    static func person(_ source: some FeedElementSource, baseURL: URL, into pending: inout FeedPerson?) {
        let found = source.attributes("role", "group", "href", "img")
        let keyword = { (value: UnsafeBufferPointer<UInt8>) in
            nonEmpty(AttributeValues.text(value).trimmingASCIIWhitespace().asciiLowercased())
        }
        let address = { (value: UnsafeBufferPointer<UInt8>) in FeedValues.resolve(AttributeValues.text(value), against: baseURL) }
        pending = FeedPerson(name: "", role: found.first.flatMap(keyword), group: found.second.flatMap(keyword),
                             href: found.third.flatMap(address), img: found.fourth.flatMap(address))
    }

    /// The end of a `podcast:person` (the channel's or an item's): the person `person(_:baseURL:into:)`
    /// made gets its name (the element's text) where it waits and is moved into `persons` — bound with
    /// `if var person = pending.take()`, it was copied, five strings retained and released.
    static func addPerson(_ pending: inout FeedPerson?, named text: UnsafeBufferPointer<UInt8>, to persons: inout [FeedPerson]) {
        guard case .some = pending else { return }
        pending!.name = FeedValues.squashedWhitespace(bytes: text)
        persons.append(pending.take()!, firstRoom: 4)
    }
}
