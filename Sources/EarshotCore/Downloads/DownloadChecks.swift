import FoundationEssentials

/// The checks a finished body must pass before it becomes an episode file, and the one before a
/// download starts. Each returns the failure, or nil when all is well.
public enum DownloadChecks {
    /// The size on disk against what was promised: the server's length when it sent one; else the
    /// feed's enclosure length when it gives one. Only then, because feeds' lengths are often stale
    /// or rough (hosts insert ads per request), while a server's length describes these very bytes.
    public static func size(written: Int64, serverTotal: Int64?, enclosureLength: Int64) -> DownloadFailure? {
        if written == 0 { return .empty }
        if let serverTotal {
            return written == serverTotal ? nil : .size(got: written, expected: serverTotal, source: "the server said")
        }
        if enclosureLength > 0, written != enclosureLength {
            return .size(got: written, expected: enclosureLength, source: "the feed says")
        }
        return nil
    }

    /// Whether the first bytes of a file are an HTML document (after a byte-order mark and white
    /// space): `<!DOCTYPE` or `<html`, any case. No audio format starts like that.
    public static func looksLikeHTML<Bytes: Collection<UInt8>>(_ head: Bytes) -> Bool {
        var bytes = Array(head.prefix(1024))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            .prefix(9).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } // ASCII lowercase
        return text.starts(with: Array("<!doctype".utf8)) || text.starts(with: Array("<html".utf8))
    }

    /// Room to finish: `free` bytes on the disk must cover the `remaining` bytes (what is not yet
    /// on disk; 0 while unknown) plus `reserve`, which is always left free for everything else.
    public static func diskSpace(free: Int64, remaining: Int64, reserve: Int64) -> DownloadFailure? {
        let needed = max(0, remaining)
        return free >= needed + reserve ? nil : .diskSpace(free: free, needed: needed, reserve: reserve)
    }
}
