import CQRencode
import Foundation

/// A QR code symbol as a square of modules, made by Debian's libqrencode (the only file that
/// touches it). Error correction M (15 % of the symbol may be lost): a phone's camera reads it off
/// a screen at an angle or with glare.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, +4 per version).
    public let size: Int
    /// Row-major, `true` = dark.
    public let modules: [Bool]

    public enum Failure: Error { case tooLong, failed(Int32) }

    /// The symbol for `text` in 8-bit mode (a URL is bytes, and its case matters).
    public init(_ text: String) throws {
        guard text.utf8.count <= 1024 else { throw Failure.tooLong }
        errno = 0
        guard let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { throw Failure.failed(errno) }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    public func isDark(row: Int, column: Int) -> Bool { modules[row * size + column] }
}
