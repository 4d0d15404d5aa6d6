/// The names, introspection data and fixed properties of Earshot's MPRIS player
/// (https://specifications.freedesktop.org/mpris-spec/latest/): the root interface and `Player`.
/// No TrackList or Playlists interface: `HasTrackList` is false (Up Next is the web UI's).
public enum MPRISInterface {
    /// The well-known name; a second Earshot on the same bus takes `….instance<pid>` (as mpv-mpris).
    public static let busName = "org.mpris.MediaPlayer2.earshot"
    public static let objectPath = "/org/mpris/MediaPlayer2"
    public static let root = "org.mpris.MediaPlayer2"
    public static let player = "org.mpris.MediaPlayer2.Player"
    public static let properties = "org.freedesktop.DBus.Properties"
    /// Where a track's id lives (`mpris:trackid` is an object path naming the episode).
    public static let trackPrefix = "/org/earshot/episode/"
    /// The spec's id for "no track".
    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// A method call that cannot be carried out answers this D-Bus error.
    public static let errorName = "org.mpris.MediaPlayer2.earshot.Error"

    /// The root interface's properties: nothing of them changes while Earshot runs. No
    /// `DesktopEntry`: Earshot installs no .desktop file (it has no window of its own).
    public static let rootProperties: [String: DBusValue] = [
        "CanQuit": .bool(false), // a service on a living-room box: quitting is the service manager's
        "CanRaise": .bool(false), // no window: the UI is any browser
        "HasTrackList": .bool(false),
        "Identity": .string("Earshot"),
        "SupportedUriSchemes": .strings(["http", "https"]),
        "SupportedMimeTypes": .strings(["application/rss+xml", "application/atom+xml", "application/xml",
                                        "audio/mpeg", "audio/mp4", "audio/aac", "audio/ogg", "audio/opus",
                                        "audio/x-m4a", "audio/wav", "audio/flac"]),
    ]

    /// The track id of an episode.
    public static func trackID(_ episode: Int64?) -> String {
        episode.map { trackPrefix + String($0) } ?? noTrack
    }

    /// What GDBus parses for `Introspect`, `Get`, `GetAll` and `Set` (the spec's signatures and access).
    public static let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/>
        <method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="Identity" type="s" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/>
        <method name="Previous"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <method name="Stop"/>
        <method name="Play"/>
        <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
        <method name="SetPosition">
          <arg direction="in" name="TrackId" type="o"/>
          <arg direction="in" name="Position" type="x"/>
        </method>
        <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
        <signal name="Seeked"><arg name="Position" type="x"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="LoopStatus" type="s" access="readwrite"/>
        <property name="Rate" type="d" access="readwrite"/>
        <property name="Shuffle" type="b" access="readwrite"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="Volume" type="d" access="readwrite"/>
        <property name="Position" type="x" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
        </property>
        <property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
        <property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read"/>
      </interface>
    </node>
    """
}
