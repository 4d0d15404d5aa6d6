import Dispatch
import EarshotCore
import Feeds
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// `earshot-parse FILE [--repeat N]`: Earshot's feed parser in a process of its own that links nothing
// else. `earshot parse` does the same work, but the earshot binary links libmpv, whose few hundred
// shared libraries take about 50 MB of resident memory before anything is parsed; `make bench` measures
// the parser's memory here, the way it measures xmllint's, and `earshot parse` beside it. Like the
// modules it uses (Feeds, EarshotCore), it needs only FoundationEssentials: Foundation proper (ICU's
// data, about 10 MB resident) and FoundationNetworking (libcurl and a TLS stack, 7 MB) are not loaded.
//
// `--scan-only` runs libxml2's SAX pass over the file with handlers that do nothing (items= then counts
// elements): the floor under any parse on libxml2, which `make bench` shows beside the parse.
//
// Prints `parse_ms=… cpu_ms=… items=… median_ms=…`: the best of N parses of the file, each reading it a chunk at
// a time (the reading is inside the time; the file is in the page cache after the first run), and the
// CPU time of that parse on all threads (a larger feed's rules run on a second one: `FeedTape`).

// The allocator set up as the server sets it up (MemoryTrim), so what is measured here is what it runs.
MemoryTrim.configure()

func fail(_ message: String) -> Never {
    let line = Array("earshot-parse: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
var repeats = 1
var scanOnly = false
var digest = false
var inMemory = false
var path: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "--repeat":
        guard let value = arguments.popFirst(), let n = Int(value), n > 0 else { fail("--repeat needs a positive number") }
        repeats = n
    case "--scan-only":
        scanOnly = true
    case "--digest":
        digest = true
    case "--in-memory":
        inMemory = true
    case "-h", "--help":
        print("usage: earshot-parse FILE [--repeat N] [--scan-only] [--digest] [--in-memory]")
        exit(0)
    default:
        guard path == nil else { fail("one file only") }
        path = argument
    }
}
guard let path else { fail("usage: earshot-parse FILE [--repeat N] [--scan-only] [--digest] [--in-memory]") }

let file = URL(fileURLWithPath: path)
/// `--in-memory`: the file's bytes, read once before any parse is timed (as Python parsers are given them).
let bytes: Data?
do {
    bytes = inMemory ? try Data(contentsOf: file) : nil
} catch {
    fail("cannot read \(path): \(error)")
}
/// CPU time of the whole process so far, user and system, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

var best = Double.infinity
var bestCPU = 0.0
var items = 0
/// A hash of the items' sanitized notes, titles and chapters (`--digest`): a change to the parser that should read every feed
/// the same way is checked by this staying the same on every feed at hand.
var notesDigest: UInt64 = 0xcbf2_9ce4_8422_2325
var times: [Double] = []
times.reserveCapacity(repeats)
for _ in 0..<repeats {
    let cpuStart = cpuMilliseconds()
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        if scanOnly {
            items = try FeedParser.scanOnly(contentsOf: file)
        } else {
            let content = try bytes.map { try FeedParser.parse($0, baseURL: file) } ?? FeedParser.parse(contentsOf: file)
            items = content.items.count
            if digest {
                notesDigest = 0xcbf2_9ce4_8422_2325
                for item in content.items {
                    var hashed = item.details.notes.utf8 + Array(item.title.utf8) + [0]  // not `bytes`: the file's
                    for chapter in item.details.chapters {
                        hashed += Array("\(chapter.start)|\(chapter.title)|\(chapter.href ?? "-")|\(chapter.image ?? "-")\n".utf8)
                    }
                    for byte in hashed {
                        notesDigest = (notesDigest ^ UInt64(byte)) &* 0x100_0000_01b3
                    }
                }
            }
        }
    } catch {
        fail("\(path) is not a feed Earshot can read: \(error)")
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    if elapsed < best { (best, bestCPU) = (elapsed, cpuMilliseconds() - cpuStart) }
    times.append(elapsed)
}
times.sort()
print("parse_ms=\(decimal(best)) cpu_ms=\(decimal(bestCPU)) items=\(items) median_ms=\(decimal(times[times.count / 2]))"
    + (digest ? " digest=\(String(notesDigest, radix: 16))" : ""))

/// Milliseconds with four decimals ("93.4021"), without Foundation's `String(format:)`: a tenth of a
/// microsecond, which tells apart parses of a small feed (a few dozen microseconds) a few percent apart.
func decimal(_ milliseconds: Double) -> String {
    let tenths = Int((milliseconds * 10_000).rounded())
    let fraction = String(tenths % 10_000)
    return "\(tenths / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
}
