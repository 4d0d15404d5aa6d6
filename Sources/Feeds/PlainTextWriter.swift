/// Accumulates plain text, holding whitespace back until the next visible character so that spaces and
/// breaks never pile up and never trail.
struct PlainTextWriter {
    var out: [UInt8] = []
    private var pendingSpace = false
    private var pendingBreaks = 0

    mutating func space() { pendingSpace = true }

    /// One more line break (as `<br>` gives), up to a blank line.
    mutating func lineBreak() { pendingBreaks = min(pendingBreaks + 1, 2) }

    /// At least `count` line breaks before the next text (a block gives 1, a paragraph 2).
    mutating func breaks(atLeast count: Int) { pendingBreaks = max(pendingBreaks, count) }

    @inline(__always)
    mutating func flush() {
        if out.isEmpty {
            pendingSpace = false
            pendingBreaks = 0
            return
        }
        if pendingBreaks > 0 {
            out.append(0x0A)
            if pendingBreaks > 1 { out.append(0x0A) }
        } else if pendingSpace {
            out.append(0x20)
        }
        pendingSpace = false
        pendingBreaks = 0
    }

    @inline(__always)
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        if pendingSpace || pendingBreaks > 0 || out.isEmpty { flush() }
        out.append(contentsOf: text)
    }

    mutating func append(scalar value: UInt32) {
        guard let scalar = Unicode.Scalar(value), value != 0 else {
            append(scalar: 0xFFFD)
            return
        }
        if value == 0xA0 || value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0D { space(); return }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return }  // control characters say nothing
        flush()
        out.append(contentsOf: UTF8.encode(scalar)!)
    }
}
