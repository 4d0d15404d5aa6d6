import FoundationEssentials

/// Byte counts for people: "812 KB", "3.4 MB", "1.2 GB" (decimal units, as disks are sold).
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let value = Double(max(0, bytes))
        if value < 1_000 { return "\(Int(value)) B" }
        if value < 1_000_000 { return "\(Int((value / 1_000).rounded())) KB" }
        if value < 1_000_000_000 { return oneDecimal(value / 1_000_000) + " MB" }
        return oneDecimal(value / 1_000_000_000) + " GB"
    }

    /// 3.44 → "3.4", 12.0 → "12" (no `String(format:)` here: EarshotCore stays off Foundation proper).
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
