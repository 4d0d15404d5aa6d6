import FoundationEssentials

/// A Podcasting 2.0 `podcast:person`: a host, guest or crew member of a podcast or episode.
public struct FeedPerson: Codable, Sendable, Equatable {
    public var name: String
    public var role: String?
    public var group: String?
    public var href: String?
    public var img: String?
    public init(name: String, role: String? = nil, group: String? = nil, href: String? = nil, img: String? = nil) {
        self.name = name; self.role = role; self.group = group; self.href = href; self.img = img
    }
}
