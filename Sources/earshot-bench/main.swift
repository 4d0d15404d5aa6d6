import EarshotCore
import Foundation
import Library

// `earshot-bench search [--podcasts N] [--episodes N] [--feed N]`: library search speed for
// `make bench` (issue 13's budgets), on real SQLite files in a temporary folder.
//
// 1. A library of N podcasts and M episodes whose titles and notes are drawn from a Zipf-weighted
//    vocabulary (as words in real show notes are: a few very common, most rare), plus a few known
//    words planted at known rates; then 400 searches of five kinds (a common word, a rare word, two
//    words, a prefix, a phrase), each timed through `LibraryStore.search` (the server's call, without
//    HTTP): p50 and p99 per kind and over all.
// 2. One feed of F episodes stored by `subscribe` into a fresh library, with the search index and
//    with it dropped (the same store without the index), best of 3 each: the index build is the
//    difference, compared with the store without it (the budget), and the whole shown beside.
//
// Prints the two tables as Markdown.

struct Words {
    /// Pronounceable made-up words: deterministic, any number of them, no dictionary needed.
    static func make(_ count: Int) -> [String] {
        let onsets = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "st", "tr", "pl"]
        let vowels = ["a", "e", "i", "o", "u", "ai", "ou", "é", "ö"]
        var words: [String] = []
        var n = 0
        while words.count < count {
            var k = n, word = ""
            repeat {
                word += onsets[k % onsets.count] + vowels[(k / onsets.count) % vowels.count]
                k /= onsets.count * vowels.count
            } while k > 0
            words.append(word)
            n += 1
        }
        return words
    }
}

/// SplitMix64: the same library every run.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Zipf (s = 1) over `vocabulary`: word i drawn with weight 1 / (i + 1).
struct Zipf {
    let vocabulary: [String]
    let cumulative: [Double]
    init(_ vocabulary: [String]) {
        self.vocabulary = vocabulary
        var sum = 0.0
        cumulative = vocabulary.indices.map { sum += 1 / Double($0 + 1); return sum }
    }
    func draw(_ random: inout Random) -> String {
        let target = random.unit() * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] < target { low = mid + 1 } else { high = mid }
        }
        return vocabulary[low]
    }
    func sentence(_ count: Int, _ random: inout Random) -> String {
        (0..<count).map { _ in draw(&random) }.joined(separator: " ")
    }
}

func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "search" else {
    FileHandle.standardError.write(Data("usage: earshot-bench search [--podcasts N] [--episodes N] [--feed N]\n".utf8))
    exit(2)
}
arguments.removeFirst()
var podcastCount = 1_000, episodeCount = 200_000, feedSize = 60_000
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first.flatMap(Int.init), value > 0 else { fatalError("\(flag) needs a number") }
    arguments.removeFirst()
    switch flag {
    case "--podcasts": podcastCount = value
    case "--episodes": episodeCount = value
    case "--feed": feedSize = value
    default: fatalError("unknown option \(flag)")
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let vocabulary = Words.make(50_000)
let zipf = Zipf(vocabulary)
var random = Random(state: 2026)
// Planted words: "kernel" in 1 % of the notes, "borscht" in 0.01 %, "linux" in 2 % of titles.
func feedContent(podcast p: Int, episodes: Int, random: inout Random) -> FeedContent {
    var items: [FeedItem] = []
    items.reserveCapacity(episodes)
    for e in 0..<episodes {
        var title = zipf.sentence(4 + Int(random.next() % 5), &random)
        if random.next() % 50 == 0 { title += " linux" }
        var notes = zipf.sentence(40 + Int(random.next() % 80), &random)
        if random.next() % 100 == 0 { notes += " the kernel" }
        if random.next() % 10_000 == 0 { notes += " borscht recipe" }
        items.append(FeedItem(guid: "p\(p)-e\(e)", title: title, summary: notes,
                              enclosureURL: "https://example.org/\(p)/\(e).mp3", enclosureType: "audio/mpeg",
                              duration: Double(600 + random.next() % 5_400),
                              published: Date(timeIntervalSince1970: 1_600_000_000 + Double(e) * 86_400)))
    }
    return FeedContent(title: zipf.sentence(3, &random).capitalized, author: zipf.sentence(2, &random).capitalized,
                       summary: zipf.sentence(30, &random), items: items)
}

// 1. Search latency.
let store = try LibraryStore(path: folder.appendingPathComponent("search.sqlite").path)
let perPodcast = episodeCount / podcastCount
let built = try await milliseconds {
    for p in 0..<podcastCount {
        let count = p < episodeCount % podcastCount ? perPodcast + 1 : perPodcast
        try await store.subscribe(feedURL: "https://example.org/\(p).xml", content: feedContent(podcast: p, episodes: count, random: &random))
    }
}
/// Five kinds of search, 80 each, from a fixed seed.
func makeQueries() -> [(String, [String])] {
    var r = Random(state: 7)
    func common(_ r: inout Random) -> String { vocabulary[Int(r.next() % 50)] }
    func rare(_ r: inout Random) -> String { vocabulary[5_000 + Int(r.next() % 40_000)] }
    return [
        ("a common word", (0..<80).map { _ in common(&r) }),
        ("a rare word", (0..<80).map { _ in rare(&r) }),
        ("two words", (0..<80).map { _ in "\(common(&r)) \(rare(&r))" }),
        ("a prefix (2–5 letters*)", (0..<80).map { _ in String(rare(&r).prefix(2 + Int(r.next() % 4))) + "*" }),
        ("a phrase", (0..<80).map { _ in "\"\(vocabulary[Int(r.next() % 200)]) \(vocabulary[Int(r.next() % 200)])\"" }),
    ]
}
let kinds = makeQueries()
_ = try await store.search("warm up the cache")
var all: [Double] = []
var rows: [String] = []
var found = 0
for (kind, queries) in kinds {
    var times: [Double] = []
    for query in queries {
        times.append(try await milliseconds {
            let results = try await store.search(query)
            found += results.episodes.count
        })
    }
    times.sort()
    all += times
    rows.append("| \(kind) | \(queries.count) | \(format(percentile(times, 0.5))) | \(format(percentile(times, 0.99))) | \(format(times.last!)) |")
}
all.sort()
let p99 = percentile(all, 0.99)
print("### Library search: \(podcastCount) podcasts, \(episodeCount) episodes with notes (built in \(format(built / 1000)) s)\n")
print("| query | searches | p50 ms | p99 ms | max ms |")
print("| --- | ---: | ---: | ---: | ---: |")
rows.forEach { print($0) }
print("| **all** | \(all.count) | \(format(percentile(all, 0.5))) | \(format(p99)) | \(format(all.last!)) |")
print("\nBudget p99 < 30 ms: \(p99 < 30 ? "PASS" : "FAIL") (\(format(p99)) ms; \(found) episode hits shown in all).\n")

// 2. What the index costs a big subscription.
var feedRandom = Random(state: 60)
let bigFeed = feedContent(podcast: 0, episodes: feedSize, random: &feedRandom)
func store(indexed: Bool, run: Int) async throws -> Double {
    let path = folder.appendingPathComponent("feed-\(indexed)-\(run).sqlite").path
    let target = try LibraryStore(path: path)
    if !indexed {
        try await target.dropSearchIndexForBenchmark()
    }
    return try await milliseconds { try await target.subscribe(feedURL: "https://example.org/big.xml", content: bigFeed) }
}
var withIndex: [Double] = [], without: [Double] = []
for run in 0..<3 {
    without.append(try await store(indexed: false, run: run))
    withIndex.append(try await store(indexed: true, run: run))
}
let plain = without.min()!, total = withIndex.min()!, build = total - plain
let ratio = build / plain
print("### One feed of \(feedSize) episodes: storing it, and building its search index (best of 3)\n")
print("| work | ms | ÷ storing without the index |")
print("| --- | ---: | ---: |")
print("| storing it without the index (`subscribe`) | \(format(plain)) | 1.00 |")
print("| building its index (the difference) | \(format(build)) | \(String(format: "%.2f", ratio)) |")
print("| storing it with the index | \(format(total)) | \(String(format: "%.2f", total / plain)) |")
print("\nBudget: the index build within 1.5× of the time to store the feed without it: \(ratio <= 1.5 ? "PASS" : "FAIL").")
