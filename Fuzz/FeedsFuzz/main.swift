import EarshotCore
@testable import Feeds
import Foundation

/// libFuzzer's entry point: every input is parsed as a feed (with everything `earshot parse --json`
/// does after) and sanitized as show notes. A crash, a hang or a broken invariant is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let base = URL(string: "https://example.com/feed.xml")!
    if let content = try? FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: true,
                                           keepingSourceText: true) {
        for item in content.items { check(item.details.notes) }
        let document = PodcastparserJSON.document(for: content, fallbackTitle: "fuzz", maxEpisodes: 3)
        _ = try? JSONEncoder().encode(document)
        _ = try? JSONEncoder().encode(content.items.map(\.details))
    }
    // The same podcast (or the same error) however it is read: by libxml2 alone, and by the scan in
    // pieces on two threads (`SplitRead`), as by the scan on one.
    let one = outcome(data, base: base, threads: .one, reading: .scanningFirst)
    if outcome(data, base: base, threads: .one, reading: .libxml2) != one { fatalError("the scan and libxml2 read it differently") }
    if outcome(data, base: base, threads: .split, reading: .scanningFirst) != one { fatalError("read in pieces, it reads differently") }
    let notes = ShowNotes.sanitize(html: String(decoding: data, as: UTF8.self))
    check(notes)
    _ = try? JSONDecoder().decode([RichText].self, from: JSONEncoder().encode(notes))
    return 0
}

/// A parse's podcast, or its error as text.
func outcome(_ data: Data, base: URL, threads: FeedParser.Threads, reading: FeedParser.Reading) -> Result<FeedContent, Failure> {
    do {
        return .success(try FeedParser.parse(data, baseURL: base, keepingItemsWithoutEnclosure: true, keepingSourceText: true,
                                             threads: threads, reading: reading))
    } catch {
        return .failure(Failure(text: "\(error)"))
    }
}

struct Failure: Error, Equatable {
    let text: String
}

/// Sanitized notes must read back as a tree that writes the very same HTML again (what the sanitizer
/// writes is what the reader understands, nothing more or less), and that tree must be allowlisted.
func check(_ notes: SanitizedHTML) {
    let nodes = notes.nodes
    if SanitizedHTML(nodes: nodes) != notes { fatalError("notes do not read back as written: \(notes.html)") }
    check(nodes)
}

/// What must hold for any sanitized notes: allowlisted elements and attributes only, http(s) URLs only
/// (mailto for links). A violation stops the fuzzer with the input that caused it.
func check(_ nodes: [RichText]) {
    let allowed: [String: Set<String>] = [
        "p": [], "br": [], "a": ["href"], "strong": [], "em": [], "b": [], "i": [], "ul": [], "ol": [], "li": [],
        "blockquote": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [], "img": ["src", "alt"],
    ]
    for node in nodes {
        guard case .element(let tag, let attributes, let children) = node else { continue }
        guard let names = allowed[tag], Set(attributes.keys).isSubset(of: names) else {
            fatalError("disallowed element or attribute: \(tag) \(attributes)")
        }
        for key in ["href", "src"] {
            guard let url = attributes[key]?.lowercased() else { continue }
            let schemes = tag == "a" ? ["http://", "https://", "mailto:"] : ["http://", "https://"]
            if !schemes.contains(where: url.hasPrefix) { fatalError("unsafe URL kept: \(tag) \(key)=\(url)") }
        }
        check(children)
    }
}
