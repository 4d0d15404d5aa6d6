import FoundationEssentials

/// A device's subscription changes as gpodder.net's API takes them (`{"add": [...], "remove": [...]}`),
/// cleaned as gpodder.net cleans them: spaces trimmed, only http(s) addresses kept. What was
/// changed is reported back in `update_urls` (`[old, new]`, new "" when the address was dropped),
/// which clients apply to their own list.
public struct SubscriptionUpload: Sendable, Equatable {
    public var add: [String]
    public var remove: [String]
    /// `[old, new]` pairs for every address not taken as sent.
    public var updatedURLs: [[String]]

    public init(add: [String], remove: [String], updatedURLs: [[String]] = []) {
        self.add = add; self.remove = remove; self.updatedURLs = updatedURLs
    }

    /// Reads and cleans an upload. An address both added and removed is refused, as gpodder.net does
    /// (the client cannot mean both); a body that is not `{add, remove}` arrays of strings too.
    public static func decode(_ value: JSONValue) throws(SubscriptionUploadError) -> SubscriptionUpload {
        guard case .object(let fields) = value else { throw .shape }
        func list(_ key: String) throws(SubscriptionUploadError) -> [String] {
            switch fields[key] {
            case nil, .null?: return []
            case .array(let items)?:
                var strings: [String] = []
                for item in items {
                    guard let string = item.string else { throw .shape }
                    strings.append(string)
                }
                return strings
            default: throw .shape
            }
        }
        var upload = SubscriptionUpload(add: [], remove: [])
        for (key, raw) in [("add", try list("add")), ("remove", try list("remove"))] {
            var kept: [String] = []
            for url in raw {
                let clean = cleanURL(url)
                if clean != url { upload.updatedURLs.append([url, clean ?? ""]) }
                if let clean, !kept.contains(clean) { kept.append(clean) }
            }
            if key == "add" { upload.add = kept } else { upload.remove = kept }
        }
        if let both = upload.add.first(where: upload.remove.contains) { throw .both(both) }
        return upload
    }

    /// The simple API's upload: the whole list of a device's subscriptions, one address each.
    public static func cleanList(_ urls: [String]) -> [String] {
        var kept: [String] = []
        for url in urls { if let clean = cleanURL(url), !kept.contains(clean) { kept.append(clean) } }
        return kept
    }

    /// An address as it is stored: trimmed, http or https only (a feed:// or itpc:// scheme, as
    /// podcast links use, becomes http://); nil when it is not a web address.
    public static func cleanURL(_ url: String) -> String? {
        var text = url.trimmed
        let lower = text.lowercased()
        for scheme in ["feed://", "itpc://", "pcast://"] where lower.hasPrefix(scheme) {
            text = "http://" + text.dropFirst(scheme.count)
        }
        let check = text.lowercased()
        guard check.hasPrefix("http://") || check.hasPrefix("https://"), text.count > 8, text.count <= 2048,
              !text.contains(where: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return nil }
        return text
    }
}

public enum SubscriptionUploadError: Error, Sendable, Equatable, CustomStringConvertible {
    case shape
    case both(String)

    public var description: String {
        switch self {
        case .shape: "send {\"add\": [feed addresses], \"remove\": [feed addresses]}"
        case .both(let url): "\(url) is both added and removed"
        }
    }
}
