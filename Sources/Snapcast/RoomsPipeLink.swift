import EarshotCore
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

    /// The rooms' pipe holds at most this much (43 ms of 48000:16:2; Linux's default is 64 KiB,
    /// 341 ms). mpv's SDL writer runs ahead of the snapserver's reading (`SDL_DISKAUDIODELAY`
    /// far shorter than a period), so the pipe is always nearly full: its size is latency every
    /// pause, seek and speed change waits behind. It must hold more than one SDL period plus the
    /// writer's sleep, or the snapserver finds it empty, resyncs its stream time, and every room
    /// hears a jump.
    public static let pipeBytes = 8192

    /// Opens the pipe at `path` for reading (never blocking; nothing is read) and sets its size to
    /// `pipeBytes`. A pipe's size lives as long as someone holds it, and the snapserver closes and
    /// opens its end between writers, so the link's owner holds this descriptor while the link
    /// points at the pipe, and closes it when it points elsewhere (mpv's writer then gets EPIPE
    /// once the snapserver is gone too, as before). Nil when the pipe cannot be opened.
    public static func hold(pipe path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        // F_SETPIPE_SZ (Linux; Glibc's module does not carry it). Empty now, so it cannot be busy.
        if fcntl(fd, 1031, Int32(pipeBytes)) < 0 {
            Log.warning("snapcast", "cannot set the size of \(path): \(String(cString: strerror(errno))); the rooms hear 0.3 s later")
        }
        return fd
    }

    /// Whether `path` is a pipe (what a snapserver with `mode=create` makes).
    public static func isPipe(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }
}
