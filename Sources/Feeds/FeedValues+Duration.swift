extension FeedValues {
    /// Seconds in an `itunes:duration`: `"1:02:34"` → 3754, `"54:12"` → 3252, `"3600"` → 3600, `"90.5"` → 90.5.
    ///
    /// Up to three colon-separated whole numbers (hours, minutes, seconds; fields may exceed 59, as in
    /// `"61:08"`), the last of which may carry a decimal fraction. Surrounding whitespace is ignored.
    /// Anything else, including empty and negative values, is 0: the duration is then unknown.
    public static func duration(_ text: String) -> Double {
        text.withUTF8Bytes { duration(bytes: $0) }
    }

    static func duration(bytes: UnsafeBufferPointer<UInt8>) -> Double {
        let range = bytes.trimmedRange()
        var index = range.lowerBound
        let end = range.upperBound
        var total = 0.0
        var fields = 0
        while true {
            let start = index
            var value = 0.0
            while index < end, isASCIIDigit(bytes[index]) {
                value = value * 10 + Double(bytes[index] &- 0x30)
                index += 1
            }
            if index == start { return 0 }
            fields += 1
            total = total * 60 + value
            if index == end { return total }
            switch bytes[index] {
            case UInt8(ascii: ":") where fields < 3:
                index += 1
            case UInt8(ascii: "."):
                index += 1
                var scale = 0.1
                while index < end, isASCIIDigit(bytes[index]) {
                    total += Double(bytes[index] &- 0x30) * scale
                    scale /= 10
                    index += 1
                }
                return index == end ? total : 0
            default:
                return 0
            }
        }
    }
}
