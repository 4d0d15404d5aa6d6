#if canImport(Glibc)
import Glibc
#endif

/// A fixed table keyed by short byte strings, each under a one-byte tag (the feed vocabulary's names
/// under their namespace), built once for the process: a lookup hashes the bytes where they lie, so
/// classifying a name makes no `String` and no `Dictionary` hash (2,600 instructions a distinct name a
/// parse that way, a tenth of a small feed's parse).
struct ByteKeyTable<Value: Sendable>: Sendable {
    /// Index into `starts` and `values`, or -1.
    private let slots: [Int32]
    /// Every key (its tag, then its bytes) one after another, key `n` from `starts[n]` to `starts[n + 1]`:
    /// one buffer, so a lookup retains no key of its own (an array of arrays did, twice a lookup).
    private let keyBytes: [UInt8]
    private let starts: [Int32]
    private let values: [Value]

    init(_ entries: [(tag: UInt8, key: String, value: Value)]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        var keys: [[UInt8]] = []
        var values: [Value] = []
        for entry in entries {
            let bytes = Array(entry.key.utf8)
            var index = bytes.withUnsafeBufferPointer { Int(truncatingIfNeeded: Self.hash(entry.tag, $0)) & (size - 1) }
            while slots[index] >= 0 {
                precondition(keys[Int(slots[index])] != [entry.tag] + bytes, "\(entry.key) twice under one tag")
                index = (index + 1) & (size - 1)
            }
            slots[index] = Int32(keys.count)
            keys.append([entry.tag] + bytes)
            values.append(entry.value)
        }
        self.slots = slots
        keyBytes = keys.flatMap { $0 }
        starts = keys.reduce(into: [0]) { $0.append($0.last! + Int32($1.count)) }
        self.values = values
    }

    /// FNV-1a over the tag and the bytes.
    private static func hash(_ tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        hash = (hash ^ UInt64(tag)) &* 0x0000_0100_0000_01B3
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash ^ (hash >> 29)
    }

    /// The value stored for `bytes` under `tag`, or nil.
    func value(tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: Self.hash(tag, bytes)) & mask
        return keyBytes.withUnsafeBufferPointer { keys in
            starts.withUnsafeBufferPointer { starts in
                while true {
                    let entry = Int(slots[index])
                    guard entry >= 0 else { return nil }
                    let start = Int(starts[entry])
                    if Int(starts[entry + 1]) - start == bytes.count + 1, keys[start] == tag, bytes.isEmpty
                        || memcmp(keys.baseAddress! + start + 1, bytes.baseAddress!, bytes.count) == 0 {
                        return values[entry]
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }
}
