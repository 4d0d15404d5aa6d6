/// Eight bytes at a time: masks with 0x80 in each byte of a little-endian word that passes a test, exact
/// per byte (no borrow runs from one byte into the next, unlike the classic "has a zero byte" test).
///
/// Show notes are tens of megabytes of words and single spaces; the text scanners look at a word of eight
/// bytes per step and go byte by byte only where something ends a run of text.
public enum ByteWord {
    // Constants as computed values: code inlined into other modules folds them (a stored `static let`
    // would be read through its one-time initializer on every use).
    @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable public static var highs: UInt64 { 0x8080_8080_8080_8080 }
    /// The last byte's high bit.
    @inlinable public static var lastHigh: UInt64 { 0x80 << 56 }

    /// The eight bytes at `position` of `bytes` (which must hold them), first byte lowest.
    @inlinable @inline(__always)
    public static func load(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt64 {
        UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + position).loadUnaligned(as: UInt64.self).littleEndian
    }

    /// Past every whole word of eight spaces from `start` (indentation in notes runs to dozens): where
    /// the first word holding anything else, or the end, begins. The rest is the caller's.
    @inlinable @inline(__always)
    public static func pastSpaceWords(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count, load(bytes, at: index) == ones &* 0x20 { index += 8 }
        return index
    }

    /// 0x80 in each byte equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return ~(((x & ~highs) &+ ~highs) | x) & highs
    }

    /// 0x80 in each byte that HTML escapes: `"`, `&`, `<`, `>`. `"` (0x22) and `&` (0x26) differ only in
    /// bit 2, `<` (0x3C) and `>` (0x3E) only in bit 1, so with that bit set one comparison finds both.
    @inlinable @inline(__always)
    public static func escapable(_ word: UInt64) -> UInt64 {
        equal(word | ones &* 0x04, 0x26) | equal(word | ones &* 0x02, 0x3E)
    }

    /// 0x80 in each byte below `limit` (1...0x80).
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        ~(((word & ~highs) &+ ones &* UInt64(0x80 - limit)) | word) & highs
    }

    /// How far a run of text goes on into the word at its position: 8 when no byte in `stops` (which marks
    /// bytes that end a run, spaces included) is there except spaces followed within the word by a byte
    /// that does not stop it; 7 when the same holds but the last byte is a space (what follows it is in
    /// the next word, which starts there); 0 otherwise (the caller looks byte by byte).
    @inlinable @inline(__always)
    public static func runLength(stops: UInt64, spaces: UInt64) -> Int {
        let others = stops & ~spaces
        let spaceBeforeStop = spaces & (stops >> 8)
        guard others | spaceBeforeStop == 0 else { return 0 }
        return spaces & lastHigh == 0 ? 8 : 7
    }

    /// Where a run of text starting before `start` ends: bytes for which `isOrdinary` holds, single spaces
    /// between them included. `stops(word)` marks, with `equal`/`below`, the bytes of a word that are not
    /// ordinary (spaces among them): the run goes eight bytes at a time where it can, straight to the first
    /// stop of a word where it cannot, and byte by byte there. The two must agree (a word with a stop
    /// must have it marked); the text scanners' tests check that they do.
    @inlinable @inline(__always)
    public static func endOfRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, stops: (UInt64) -> UInt64,
                         isOrdinary: (UInt8) -> Bool) -> Int {
        let count = bytes.count
        var cursor = start
        while cursor < count {
            if cursor + 8 <= count {
                let word = load(bytes, at: cursor)
                let stopping = stops(word)
                let length = runLength(stops: stopping, spaces: equal(word, 0x20))
                if length > 0 {
                    cursor += length
                    continue
                }
                // The bytes before the word's first stop are ordinary: past them at once, to the stop (a
                // short word followed by a tag was read a byte at a time, a word loaded for each byte).
                cursor += stopping.trailingZeroBitCount >> 3
            }
            let byte = bytes[cursor]
            if isOrdinary(byte) {
                cursor += 1
            } else if byte == 0x20, cursor + 1 < count, isOrdinary(bytes[cursor + 1]) {
                cursor += 2
            } else {
                break
            }
        }
        return cursor
    }
}
