import Foundation

/// Images made by the tests themselves: an uncompressed 24-bit BMP (the one raster format simple
/// enough to write by hand), so artwork tests need no image library of their own.
public enum GeneratedImage {
    /// A `width` × `height` BMP: the left half red, the right half blue (so a test can tell a
    /// resized copy kept the picture, not just the size).
    public static func bmp(width: Int, height: Int) -> Data {
        let rowBytes = (width * 3 + 3) & ~3
        let pixelBytes = rowBytes * height
        var data = Data(capacity: 54 + pixelBytes)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("BM".utf8)); append(UInt32(54 + pixelBytes)); append(UInt32(0)); append(UInt32(54))
        append(UInt32(40)); append(Int32(width)); append(Int32(height)); append(UInt16(1)); append(UInt16(24))
        append(UInt32(0)); append(UInt32(pixelBytes)); append(Int32(2835)); append(Int32(2835)); append(UInt32(0)); append(UInt32(0))
        for _ in 0..<height {
            for x in 0..<width {
                // BMP pixels are blue, green, red.
                data.append(contentsOf: x < width / 2 ? [0, 0, 255] as [UInt8] : [255, 0, 0])
            }
            data.append(contentsOf: [UInt8](repeating: 0, count: rowBytes - width * 3))
        }
        return data
    }
}
