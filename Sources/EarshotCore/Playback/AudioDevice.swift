import FoundationEssentials

/// One of the host's audio outputs as mpv lists them (`audio-device-list`): `name` is what mpv's
/// `audio-device` takes ("auto", "pulse/alsa_output.usb-…"), `description` what a person reads.
public struct AudioDevice: Codable, Sendable, Equatable, Hashable {
    public var name: String
    public var description: String
    public init(name: String, description: String) {
        self.name = name; self.description = description
    }

    /// mpv's "let the system choose" device, always present and never unplugged.
    public static let automatic = "auto"
}
