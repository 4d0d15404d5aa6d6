/// Sixteen bytes at a time, in one vector register: `ByteWord`'s tests on twice the bytes a step, for the
/// scanners whose runs are long (addresses, attribute values, tags' insides).
///
/// The tests are written so that the compiler makes them single vector instructions (checked on x86-64,
/// SSE2: `pcmpeqb`, `pminub`); the lanes are signed bytes because that is what SSE2's compare of two
/// vectors is. `Marks` takes a test's result back into two words, one byte of 0xFF for a lane that
/// passed: the first mark is a count of trailing zero bits away, as with `ByteWord`'s masks. (The
/// standard library's `any(_:)` of a mask was, in a function of its own, a call to a generic reduction.)
public enum ByteBlock {
    public typealias Lanes = SIMD16<Int8>
    public typealias Mask = SIMDMask<Lanes>

    /// The sixteen bytes at `position` of `bytes` (which must hold them), first byte in lane 0.
    @inlinable @inline(__always)
    public static func load(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Lanes {
        UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + position).loadUnaligned(as: Lanes.self)
    }

    /// The lanes equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ block: Lanes, _ byte: UInt8) -> Mask {
        block .== Lanes(repeating: Int8(bitPattern: byte))
    }

    /// The lanes below `limit` (1...0x80), read as unsigned bytes: what is not negative as a signed byte
    /// and below the limit.
    @inlinable @inline(__always)
    public static func below(_ block: Lanes, _ limit: UInt8) -> Mask {
        // 0x80 as a signed byte is the least there is: below it, as unsigned, is all that is not negative.
        limit >= 0x80 ? block .>= Lanes(repeating: 0)
            : (block .>= Lanes(repeating: 0)) .& (block .< Lanes(repeating: Int8(truncatingIfNeeded: limit)))
    }

    /// The lanes HTML escapes: `"`, `&`, `<`, `>` (as `ByteWord.escapable`: pairs that differ in one bit).
    @inlinable @inline(__always)
    public static func escapable(_ block: Lanes) -> Mask {
        (block | Lanes(repeating: 0x04)) .== Lanes(repeating: 0x26) .| ((block | Lanes(repeating: 0x02)) .== Lanes(repeating: 0x3E))
    }

    /// A test's lanes as two words, 0xFF in each byte of a lane that passed (lanes 0–7 in `low`).
    public struct Marks {
        public let low: UInt64
        public let high: UInt64

        @inlinable @inline(__always)
        public init(_ mask: Mask) {
            (low, high) = unsafeBitCast(Lanes(repeating: 0).replacing(with: -1, where: mask), to: (UInt64, UInt64).self)
        }

        /// No lane passed.
        @inlinable public var isEmpty: Bool {
            @inline(__always) get { low | high == 0 }
        }

        /// The first lane that passed; 16 when none did.
        @inlinable public var first: Int {
            @inline(__always) get {
                low != 0 ? low.trailingZeroBitCount >> 3 : 8 + high.trailingZeroBitCount >> 3
            }
        }
    }
}
