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

/// A fixed table keyed by names of up to 16 bytes under a one-byte tag, each name packed into two
/// words (`pack`): a lookup is a multiply, a shift and three compares, with no byte-at-a-time hash and
/// no `memcmp` (the vocabulary's element names, looked up once an element: `NameCache`). Built once
/// for the process.
struct PackedNameTable<Value: Sendable>: Sendable {
    private struct Slot: Sendable {
        var low: UInt64
        var high: UInt64
        /// The key's tag, or `empty`.
        var tag: UInt16
        var value: Value?
    }

    private static var empty: UInt16 { 0x100 }
    private let slots: [Slot]
    private let shift: UInt64

    /// A name's bytes, little-endian, zeros after the last: a name holds no NUL, so two names pack
    /// alike only when they are the same.
    struct Packed: Equatable {
        var low: UInt64
        var high: UInt64
    }

    /// Keys of up to 16 bytes.
    init(_ entries: [(tag: UInt8, key: String, value: Value)]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        shift = UInt64(64 - size.trailingZeroBitCount)
        var slots = [Slot](repeating: Slot(low: 0, high: 0, tag: Self.empty, value: nil), count: size)
        for entry in entries {
            let bytes = Array(entry.key.utf8)
            guard let packed = bytes.withUnsafeBufferPointer({ Self.pack($0) }) else { preconditionFailure("\(entry.key): longer than 16 bytes") }
            var index = Self.slot(entry.tag, packed, shift: shift)
            while slots[index].tag != Self.empty {
                precondition(slots[index].tag != UInt16(entry.tag) || slots[index].low != packed.low || slots[index].high != packed.high,
                             "\(entry.key) twice under one tag")
                index = (index + 1) & (size - 1)
            }
            slots[index] = Slot(low: packed.low, high: packed.high, tag: UInt16(entry.tag), value: entry.value)
        }
        self.slots = slots
    }

    @inline(__always)
    private static func slot(_ tag: UInt8, _ packed: Packed, shift: UInt64) -> Int {
        let mixed = (packed.low &* 0x9E37_79B9_7F4A_7C15) ^ (packed.high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(tag)
        return Int(truncatingIfNeeded: ((mixed ^ mixed >> 31) &* 0xBF58_476D_1CE4_E5B9) >> shift)
    }

    /// `bytes` packed, or nil when longer than 16.
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Packed? {
        guard bytes.count <= 16 else { return nil }
        var packed = Packed(low: 0, high: 0)
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 {
                packed.low |= UInt64(byte) << (UInt64(offset) << 3)
            } else {
                packed.high |= UInt64(byte) << (UInt64(offset - 8) << 3)
            }
        }
        return packed
    }

    /// The NUL-terminated name at `name` packed and its length, or nil when it is longer than 16 bytes.
    @inline(__always)
    static func pack(terminated name: UnsafePointer<UInt8>) -> (packed: Packed, length: Int)? {
        var packed = Packed(low: 0, high: 0)
        var length = 0
        while length < 8 {
            let byte = name[length]
            if byte == 0 { return (packed, length) }
            packed.low |= UInt64(byte) << (UInt64(length) << 3)
            length += 1
        }
        while length < 16 {
            let byte = name[length]
            if byte == 0 { return (packed, length) }
            packed.high |= UInt64(byte) << (UInt64(length - 8) << 3)
            length += 1
        }
        return name[16] == 0 ? (packed, 16) : nil
    }

    /// The value stored for `packed` under `tag`, or nil.
    @inline(__always)
    func value(tag: UInt8, _ packed: Packed) -> Value? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.slot(tag, packed, shift: shift)
            while true {
                let slot = slots[index]
                if slot.low == packed.low, slot.high == packed.high, slot.tag == UInt16(tag) { return slot.value }
                if slot.tag == Self.empty { return nil }
                index = (index + 1) & mask
            }
        }
    }
}
