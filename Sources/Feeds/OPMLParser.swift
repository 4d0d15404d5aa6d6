import FoundationEssentials

/// Reads OPML subscription lists as podcast and feed-reader apps really export them, streaming through
/// libxml2 with the same safe options as the feed parser (no network, no entity expansion, no DTD loading).
///
/// Lenient about structure: every `<outline>` with an `xmlUrl` (in any spelling apps use, `xmlURL` too)
/// counts, at any depth below `<body>`, inside folders or not, whatever its `type`. Strict about the file
/// itself: bytes that are not well-formed XML, a root that is not `<opml>` or a missing `<body>` throw
/// `OPMLError`, so an importer never subscribes half of a broken file.
public enum OPMLParser {
    /// Parses an OPML file. Throws `OPMLError`.
    public static func parse(_ data: Data) throws(OPMLError) -> OPMLDocument {
        let result: Result<OPMLDocument, OPMLError> = data.withUnsafeBytes { raw in
            let bytes = skippingLeadingWhitespace(raw)
            guard !bytes.isEmpty else { return .failure(.empty) }
            guard let reader = XMLStreamReader.streaming(bytes) else {
                return .failure(.notXML(reason: "libxml2 could not open the document"))
            }
            let result = Result { () throws(OPMLError) in try read(reader) }
            // libxml2 reads ahead, so a web page usually fails on its HTML-isms (`<meta charset=utf-8>`)
            // before its root element is seen: name the real problem.
            if case .failure(.notXML) = result, looksLikeHTML(bytes) { return .failure(.notOPML(rootElement: "html")) }
            return result
        }
        return try result.get()
    }

    /// The form under which two spellings of one feed address compare equal: surrounding whitespace
    /// trimmed, scheme and host lower-cased (user info, path, query and fragment are kept as written,
    /// since servers may treat their case as meaningful).
    public static func normalizedURL(_ raw: String) -> String {
        let trimmed = raw.trimmingWhitespace()
        guard let colon = trimmed.firstIndex(of: ":") else { return trimmed }
        let scheme = trimmed[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { return trimmed }
        var rest = trimmed[trimmed.index(after: colon)...]
        guard rest.hasPrefix("//") else { return scheme.lowercased() + ":" + rest }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // Only the host is case-insensitive: a password in the user info is not.
        let hostStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        return scheme.lowercased() + "://" + authority[..<hostStart] + authority[hostStart...].lowercased()
            + rest[authorityEnd...]
    }

    /// Why a feed address cannot be subscribed to, phrased to follow "… is" ("not an http or https address"),
    /// or nil when it is an http or https URL with a host.
    public static func rejection(ofFeedURL url: String) -> String? {
        let lower = url.lowercased()
        let afterScheme: Substring
        if lower.hasPrefix("http://") { afterScheme = lower.dropFirst(7) }
        else if lower.hasPrefix("https://") { afterScheme = lower.dropFirst(8) }
        else { return "not an http or https address" }
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return host.isEmpty || host.hasPrefix(":") ? "an address without a host" : nil
    }

    /// Whether the document opens like a web page: `<!doctype html` or `<html` before any `<opml`, in its
    /// first kilobyte, ignoring case.
    private static func looksLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        guard let html = start.range(of: "<!doctype html") ?? start.range(of: "<html") else { return false }
        guard let opml = start.range(of: "<opml") else { return true }
        return html.lowerBound < opml.lowerBound
    }

    private static func skippingLeadingWhitespace(_ raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        while start < raw.count, isASCIIWhitespace(raw[start]) { start += 1 }
        return UnsafeRawBufferPointer(rebasing: raw[start...])
    }

    private static func next(_ reader: XMLStreamReader) throws(OPMLError) -> XMLStreamReader.Node? {
        do { return try reader.read() } catch { throw .notXML(reason: error.message) }
    }

    private static func read(_ reader: XMLStreamReader) throws(OPMLError) -> OPMLDocument {
        var walk = OPMLWalk()
        while let node = try next(reader) {
            switch node {
            case .startElement(_, let isEmpty):
                try walk.start(reader)
                if isEmpty { walk.end() }
            case .endElement:
                walk.end()
            case .text:
                if walk.collectsTitle { reader.appendValue(to: &walk.titleText) }
            case .other:
                break
            }
        }
        guard walk.sawRoot else { throw .notXML(reason: "the document has no root element") }
        guard walk.sawBody else { throw .noBody }
        return walk.document()
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
