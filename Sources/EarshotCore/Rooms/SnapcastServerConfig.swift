import FoundationEssentials

/// The snapserver Earshot starts itself when none is given (`--snapcast`) and `snapserver` is
/// installed: its configuration file, from a folder of Earshot's data and two ports. Earshot's
/// stream is a pipe (snapserver reads it at 1×, so the writer is paced by it); a second, silent
/// pipe named "Off" is where a room goes when it leaves. The JSON-RPC control listens on loopback
/// only; the audio port on the LAN when Earshot does (rooms are other machines).
public struct SnapcastServerConfig: Sendable, Equatable {
    public var folder: String
    public var streamPort: Int
    public var controlPort: Int
    public var lan: Bool
    public var streamName: String

    public init(folder: String, streamPort: Int = 1704, controlPort: Int = 1705, lan: Bool, streamName: String = "Earshot") {
        self.folder = folder; self.streamPort = streamPort; self.controlPort = controlPort; self.lan = lan; self.streamName = streamName
    }

    public var pipePath: String { folder + "/earshot.fifo" }
    public var offPipePath: String { folder + "/off.fifo" }
    public var configPath: String { folder + "/snapserver.conf" }
    public var logPath: String { folder + "/snapserver.log" }
    /// The sample format mpv writes and the pipe declares.
    public static let sampleFormat = "48000:16:2"

    /// The file's text.
    public var text: String {
        """
        # Written by Earshot at each start: edits are lost (earshot serve --snapcast HOST uses a snapserver of your own).
        [server]
        datadir = \(folder)/data
        [http]
        enabled = false
        [tcp]
        enabled = true
        bind_to_address = 127.0.0.1
        port = \(controlPort)
        [stream]
        bind_to_address = \(lan ? "0.0.0.0" : "127.0.0.1")
        port = \(streamPort)
        source = pipe://\(pipePath)?name=\(streamName)&sampleformat=\(Self.sampleFormat)&mode=create
        source = pipe://\(offPipePath)?name=Off&sampleformat=\(Self.sampleFormat)&mode=create
        codec = flac
        buffer = 1000
        [logging]
        sink = file:\(logPath)
        filter = *:notice

        """
    }

    /// The line a user's own snapserver needs for Earshot (README "Rooms").
    public static func sourceLine(pipe: String = "/tmp/earshot.fifo", name: String = "Earshot") -> String {
        "source = pipe://\(pipe)?name=\(name)&sampleformat=\(sampleFormat)&mode=create"
    }
}
