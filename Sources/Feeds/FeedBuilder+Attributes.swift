import EarshotCore
import FoundationEssentials

extension FeedBuilder {
    /// Reads the attributes of the element the rules matched; `attribute` looks one up by name.
    mutating func store(_ field: AttributeField, attribute: (StaticString) -> String?) {
        switch field {
        case .base:
            if let base = attribute("xml:base") { rebase(base) }
        case .channelImage:
            setImage(attribute("href"))
        case .channelLink:
            storeChannelLink(attribute)
        case .category:
            // A category with no text still holds its subcategories (podcastparser keeps it as "").
            details.categories.append([attribute("text").map(FeedValues.squashedWhitespace) ?? ""])
        case .subcategory:
            if let text = attribute("text").map(FeedValues.squashedWhitespace), !text.isEmpty,
               !details.categories.isEmpty {
                details.categories[details.categories.count - 1].append(text)
            }
        case .funding:
            pendingFunding = attribute("url").flatMap { FeedValues.resolve($0, against: baseURL) }
                .map { FeedLink(url: $0) }
        case .channelPerson:
            pendingPerson = Self.person(attribute, baseURL: baseURL)
        default:
            item?.store(field, attribute: attribute, baseURL: baseURL)
        }
    }

    /// `<atom:link>` on the channel: paging (RFC 5005), payment, or the podcast's web page. As in
    /// podcastparser, only a link that says it is HTML (`type="text/html"`) names the web page: the
    /// others are the feed itself, hubs and alternate formats.
    private mutating func storeChannelLink(_ attribute: (StaticString) -> String?) {
        let rel = attribute("rel")?.trimmingASCIIWhitespace().asciiLowercased() ?? "alternate"
        guard let href = attribute("href").flatMap({ FeedValues.resolve($0, against: baseURL) }) else { return }
        switch rel {
        case "first": details.pageFirstURL = details.pageFirstURL ?? href
        case "next": details.pageNextURL = details.pageNextURL ?? href
        case "payment": details.paymentURL = details.paymentURL ?? href
        case "alternate", "self":
            if attribute("type")?.trimmingASCIIWhitespace().asciiLowercased() == "text/html" { setLink(href) }
        default: break
        }
    }

    /// A `podcast:person` from its attributes; the name (its text) comes later. Role and group are
    /// case-insensitive in the namespace's taxonomy, so they are kept lowercased.
    static func person(_ attribute: (StaticString) -> String?, baseURL: URL) -> FeedPerson {
        FeedPerson(
            name: "",
            role: attribute("role").map { $0.trimmingASCIIWhitespace().asciiLowercased() }.flatMap(nonEmpty),
            group: attribute("group").map { $0.trimmingASCIIWhitespace().asciiLowercased() }.flatMap(nonEmpty),
            href: attribute("href").flatMap { FeedValues.resolve($0, against: baseURL) },
            img: attribute("img").flatMap { FeedValues.resolve($0, against: baseURL) })
    }
}
