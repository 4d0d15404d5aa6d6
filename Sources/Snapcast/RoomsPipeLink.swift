import Foundation

/// The file mpv's SDL "disk" driver writes to (`SDL_DISKAUDIOFILE`, set once at start): a symbolic
/// link Earshot points at the snapserver's pipe while one is there, and at /dev/null otherwise, so
/// that nothing ever writes a growing regular file, and a pipe is opened only while a snapserver
/// reads it (mpv would wait for a reader for good).
public enum RoomsPipeLink {
    /// Points `link` at `target`, replacing what it pointed at in one step (a rename).
    public static func point(_ link: String, to target: String) throws {
        let temporary = link + ".new"
        // A leftover of a run that died between the two steps; none is the usual case.
        guard unlink(temporary) == 0 || errno == ENOENT else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: target)
        guard rename(temporary, link) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: link])
        }
    }

    /// Whether `path` is a pipe (what a snapserver with `mode=create` makes).
    public static func isPipe(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }
}
