/// A request body sent with `Transfer-Encoding: chunked` (RFC 9112 §7.1), decoded as its bytes arrive.
///
/// libwebsockets 4.1 reads a body by its Content-Length; without one it hands a POST's (and PUT's,
/// PATCH's) bytes over raw, framing and all, as if 100 MB followed. So the framing is taken off here
/// and the request is carried out when the last chunk is in. Pure: tests feed it bytes.
struct ChunkedBody {
    enum Progress: Equatable {
        case needMore
        /// The last chunk and the trailers are in; `body` holds the decoded bytes.
        case done
        /// The decoded body passed `limit`.
        case tooLarge
        /// The framing is broken (a size that is not hex, a chunk not followed by CRLF, a line too long).
        case malformed(String)
    }

    private enum Phase { case size, data(Int), dataEnd, trailers, finished }

    let limit: Int
    private(set) var body: [UInt8] = []
    private var phase = Phase.size
    private var line: [UInt8] = []
    private var failure: Progress?

    /// Lines (a size with its extensions, a trailer) longer than this are refused.
    static let maximumLine = 4096

    init(limit: Int) { self.limit = limit }

    var isDone: Bool { if case .finished = phase { true } else { false } }

    /// Takes the next bytes; once `.done` (or a failure) further bytes are ignored.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Progress {
        if let failure { return failure }
        if isDone { return .done }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch phase {
            case .size, .trailers:
                let byte = bytes[index]
                index += 1
                if byte != UInt8(ascii: "\n") {
                    line.append(byte)
                    if line.count > Self.maximumLine { return fail("a chunk line longer than \(Self.maximumLine) bytes") }
                    continue
                }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                defer { line.removeAll(keepingCapacity: true) }
                if case .trailers = phase {
                    if line.isEmpty { phase = .finished; return .done } // trailers themselves are ignored
                    continue
                }
                // "1a3f;name=value": the size in hex, extensions ignored.
                let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
                guard !digits.isEmpty, digits.count <= 15,
                      let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    return fail("a chunk size that is not hexadecimal")
                }
                if size == 0 { phase = .trailers; continue }
                if body.count + size > limit { failure = .tooLarge; return .tooLarge }
                phase = .data(size)
            case .data(let left):
                let take = min(left, bytes.endIndex - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                phase = left - take == 0 ? .dataEnd : .data(left - take)
            case .dataEnd:
                // The CRLF after a chunk's data.
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\r") { continue }
                guard byte == UInt8(ascii: "\n") else { return fail("a chunk not followed by CRLF") }
                phase = .size
            case .finished:
                return .done
            }
        }
        return isDone ? .done : .needMore
    }

    private mutating func fail(_ reason: String) -> Progress {
        let progress = Progress.malformed(reason)
        failure = progress
        return progress
    }
}
