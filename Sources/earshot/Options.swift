import EarshotCore
import Foundation
import Web

/// What `earshot` was asked to do, from its arguments and environment.
struct Options {
    enum Command { case serve, subscribe(String), refresh, parse(ParseCommand.Settings), importOPML(String), exportOPML, syncUser(String), help, version }

    var command: Command = .serve
    var host = "127.0.0.1"
    var port = 8080
    var dataDirectory: URL
    var audioOutput: String?
    var demo = true
    var webRoot: URL?
    /// How often every feed is refreshed while serving; nil: only on request.
    var refreshSchedule: RefreshSchedule? = RefreshSchedule()
    /// Seconds before an episode's end that count as the end; nil: what the library has stored.
    var playedMargin: Double?
    /// `--lan`: listen on the LAN too (phones pair first); `--allow-host`: more Host names.
    var lan = false
    var allowedHosts: [String] = []
    /// `--itunes-url`, `--podcastindex-url`: the directories' base addresses.
    var directoryBaseURLs: [DirectoryProvider: String] = [:]
    var podcastIndexCredentials: PodcastIndexCredentials?
    /// `--no-mpris`: do not appear on the session bus as a media player.
    var mpris = true
    /// `--ca-file`: a private CA (PEM) trusted beside the system's, for self-hosted feeds.
    var caFile: String?
    /// Snapcast (issue 17): `--snapcast HOST[:PORT]` a snapserver of the user's; else, unless
    /// `--no-snapcast`, one Earshot starts when `snapserver` is installed, its audio port
    /// `--snapcast-port` (control: the next port); `--snapcast-stream`: the stream's name.
    var snapcast: (host: String, port: Int)?
    var snapcastOff = false
    var snapcastStream = "Earshot"
    var snapcastPort = 1704
    /// The settings file read (nil: none was there).
    var configFile: String?

    static let usage = """
    Usage:
      earshot serve [--port N] [--data DIR] [--audio-output NAME] [--no-demo] [--refresh-interval H]
                    [--played-margin S] [--web-root DIR] [--lan] [--allow-host NAME]…
                    [--itunes-url URL] [--podcastindex-url URL] [--no-mpris] [--ca-file PEM]
                    [--config FILE]
      earshot subscribe URL [--data DIR]
      earshot refresh [--data DIR]
      earshot parse FILE|URL [--json] [--timing [--repeat N]]
      earshot import FILE.opml [--data DIR]
      earshot export [--data DIR] > subscriptions.opml
      earshot sync-user NAME [--data DIR] [< password]
      earshot help | --version

    serve          play on this machine and serve the web UI (default: http://127.0.0.1:8080)
    subscribe URL  add a podcast feed to the library and exit (refresh it if it is there)
    refresh        refresh every feed now and say which failed (exit 3 when some did)
    import FILE    subscribe to every feed of an OPML file (exit 3 when some failed)
    export         print the subscriptions as OPML 2.0
    sync-user NAME turn on sync for phone podcast apps (AntennaPod, gPodder: gpodder.net
                   or Nextcloud sync) as NAME; the password from standard input, asked
                   for on a terminal, or made and printed once when empty
    parse          print what Earshot reads in a feed; --json in podcastparser's schema
                   (plus Earshot's fields), --timing prints the parse time alone

    --port N             port to listen on; 0 picks a free one (printed)       env EARSHOT_PORT
    --data DIR           library, downloads and cache                           env EARSHOT_DATA
                         (default: $XDG_DATA_HOME/earshot or ~/.local/share/earshot)
    --audio-output NAME  mpv's audio output, e.g. pulse, alsa, pipewire, null    env EARSHOT_AUDIO_OUTPUT
                         (default: mpv picks)
    --no-demo            do not add the bundled demo podcast on first start
    --refresh-interval H refresh every feed every H hours (±10 %); 0 or off: never  env EARSHOT_REFRESH_INTERVAL
                         (default: 6)
    --itunes-url URL     where podcast search asks Apple's directory (default https://itunes.apple.com)  env EARSHOT_ITUNES_URL
    --podcastindex-url URL  where it asks Podcast Index (default https://api.podcastindex.org)  env EARSHOT_PODCASTINDEX_URL;
                         its key and secret: env EARSHOT_PODCASTINDEX_KEY, EARSHOT_PODCASTINDEX_SECRET
    --played-margin S    stopping in an episode's last S seconds (0…600)        env EARSHOT_PLAYED_MARGIN
                         marks it played (at most its last tenth); stored, and
                         changeable in the web UI (default: 30, or what was set)
    --web-root DIR       folder holding Public/ and Templates/ (default: found next to the program)
    --lan                also listen on this machine's LAN addresses, so a phone  env EARSHOT_LAN=1
                         can be the remote: it must pair first, with a code shown
                         in this machine's own browser (Devices); see SECURITY.md
    --allow-host NAME    one more name a request may call this server by (a DNS  env EARSHOT_ALLOW_HOSTS
                         name, a TLS proxy's); repeatable                          (comma-separated)
    --snapcast HOST[:P]  play to Snapcast's rooms through this snapserver (JSON-RPC port P,  env EARSHOT_SNAPCAST
                         default 1705); its configuration needs a pipe source named Earshot
                         (README "Rooms"). Without it, Earshot starts snapserver itself when
                         it is installed (audio port --snapcast-port, default 1704; control the next)
    --snapcast-stream N  the stream's name in that snapserver (default Earshot)
    --no-snapcast        no rooms, and no snapserver started                     EARSHOT_SNAPCAST=off
    --no-mpris           do not show up as a media player on the session bus (MPRIS: media keys,
                         the desktop's media widget, headset buttons, KDE Connect)
    --ca-file PEM        also trust this CA's certificates (PEM) for HTTPS      env EARSHOT_CA_FILE
                         streams and downloads (self-hosted feeds); the system's
                         stay trusted, and every certificate is verified either way
    --config FILE        settings read first, one "key = value" a line, keys as  env EARSHOT_CONFIG
                         the flags above ("port = 8080", "lan = yes"); the environment
                         and the command line win over it
                         (default: $XDG_CONFIG_HOME/earshot/earshot.conf or ~/.config/earshot/earshot.conf,
                         when there is one)
    """

    /// The settings file first, then the environment, then arguments (which win). `configuration`
    /// is the file's text when the caller has read it (`configurationFile` says which).
    static func parse(_ arguments: [String], environment: [String: String], configuration: (path: String, text: String)? = nil) throws -> Options {
        var options = Options(dataDirectory: defaultDataDirectory(environment))
        if let configuration {
            do {
                var flags = try ConfigFile.flags(configuration.text)[...]
                try options.apply(&flags)
            } catch let error as ConfigFile.Failure {
                throw OptionError("\(configuration.path): \(error)")
            } catch {
                throw OptionError("\(configuration.path): \(error)")
            }
            options.configFile = configuration.path
        }
        if let port = environment["EARSHOT_PORT"], !port.isEmpty {
            guard let value = Int(port), (0...65535).contains(value) else { throw OptionError("EARSHOT_PORT must be a port number, not \"\(port)\"") }
            options.port = value
        }
        if let data = environment["EARSHOT_DATA"], !data.isEmpty { options.dataDirectory = URL(fileURLWithPath: data) }
        if let ca = environment["EARSHOT_CA_FILE"], !ca.isEmpty { options.caFile = ca }
        if let ao = environment["EARSHOT_AUDIO_OUTPUT"], !ao.isEmpty { options.audioOutput = ao }
        if let margin = environment["EARSHOT_PLAYED_MARGIN"], !margin.isEmpty {
            options.playedMargin = try parseMargin(margin, name: "EARSHOT_PLAYED_MARGIN")
        }
        if let lan = environment["EARSHOT_LAN"], !lan.isEmpty {
            switch lan.lowercased() {
            case "1", "true", "yes", "on": options.lan = true
            case "0", "false", "no", "off": options.lan = false
            default: throw OptionError("EARSHOT_LAN must be 1 or 0, not \"\(lan)\"")
            }
        }
        if let hosts = environment["EARSHOT_ALLOW_HOSTS"], !hosts.isEmpty {
            options.allowedHosts = try hosts.split(separator: ",").map { try parseHostName(String($0)) }
        }
        if let snapcast = environment["EARSHOT_SNAPCAST"], !snapcast.isEmpty {
            if ["0", "off", "no"].contains(snapcast.lowercased()) { options.snapcastOff = true } else { options.snapcast = try parseSnapcast(snapcast) }
        }
        if let hours = environment["EARSHOT_REFRESH_INTERVAL"], !hours.isEmpty {
            do { options.refreshSchedule = try RefreshSchedule.parse(hours: hours) } catch {
                throw OptionError("EARSHOT_REFRESH_INTERVAL: \(error)")
            }
        }

        for (provider, name) in [(DirectoryProvider.itunes, "EARSHOT_ITUNES_URL"), (.podcastindex, "EARSHOT_PODCASTINDEX_URL")] {
            if let url = environment[name], !url.isEmpty { options.directoryBaseURLs[provider] = try parseBaseURL(url, name: name) }
        }
        if let key = environment["EARSHOT_PODCASTINDEX_KEY"], let secret = environment["EARSHOT_PODCASTINDEX_SECRET"],
           !key.isEmpty, !secret.isEmpty {
            options.podcastIndexCredentials = PodcastIndexCredentials(key: key, secret: secret)
        }

        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "serve": options.command = .serve
            case "refresh": options.command = .refresh
            case "help": options.command = .help
            case "version": options.command = .version
            case "subscribe":
                guard let url = rest.first, !url.hasPrefix("-") else { throw OptionError("subscribe needs a feed URL") }
                options.command = .subscribe(url)
                rest = rest.dropFirst()
            case "import":
                guard let file = rest.first, !file.hasPrefix("-") else { throw OptionError("import needs an OPML file") }
                options.command = .importOPML(file)
                rest = rest.dropFirst()
            case "export": options.command = .exportOPML
            case "sync-user":
                guard let name = rest.first, !name.hasPrefix("-") else { throw OptionError("sync-user needs a user name") }
                options.command = .syncUser(name)
                rest = rest.dropFirst()
            case "parse":
                guard let target = rest.first, !target.hasPrefix("-") else { throw OptionError("parse needs a file or URL") }
                options.command = .parse(ParseCommand.Settings(target: target))
                rest = rest.dropFirst()
            default: throw OptionError("unknown command \"\(first)\"")
            }
        }
        try options.apply(&rest)
        return options
    }

    /// `HOST[:PORT]` (or `[IPv6]:PORT`) of a snapserver's JSON-RPC control; the port defaults to 1705.
    static func parseSnapcast(_ text: String) throws -> (host: String, port: Int) {
        var host = text, port = 1705
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { guard let p = Int(rest.dropFirst()) else { throw OptionError("--snapcast: bad port in \"\(text)\"") }; port = p }
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            host = String(text[..<colon])
            guard let p = Int(text[text.index(after: colon)...]) else { throw OptionError("--snapcast: bad port in \"\(text)\"") }
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port) else { throw OptionError("--snapcast is HOST[:PORT], not \"\(text)\"") }
        return (host, port)
    }

    /// Reads flags (the command line's, or those a settings file stands for) into these options.
    mutating func apply(_ rest: inout ArraySlice<String>) throws {
        while let flag = rest.popFirst() {
            func value() throws -> String {
                guard let v = rest.popFirst() else { throw OptionError("\(flag) needs a value") }
                return v
            }
            switch flag {
            case "--port":
                let v = try value()
                guard let port = Int(v), (0...65535).contains(port) else { throw OptionError("--port must be 0…65535, not \"\(v)\"") }
                self.port = port
            case "--data": self.dataDirectory = URL(fileURLWithPath: try value())
            case "--audio-output": self.audioOutput = try value()
            case "--no-demo": self.demo = false
            case "--no-mpris": self.mpris = false
            case "--no-snapcast": self.snapcastOff = true
            case "--snapcast": self.snapcast = try Self.parseSnapcast(try value())
            case "--snapcast-stream":
                let name = try value()
                guard !name.isEmpty, name.count <= 64, !name.contains(where: { $0 == "&" || $0 == "?" || $0.isWhitespace }) else {
                    throw OptionError("--snapcast-stream is a stream's name (no spaces, & or ?), not \"\(name)\"")
                }
                self.snapcastStream = name
            case "--snapcast-port":
                let v = try value()
                guard let port = Int(v), (1...65534).contains(port) else { throw OptionError("--snapcast-port must be 1…65534, not \"\(v)\"") }
                self.snapcastPort = port
            case "--ca-file": self.caFile = try value()
            case "--config": _ = try value() // read before parsing (`configurationFile`)
            case "--lan": self.lan = true
            case "--allow-host": self.allowedHosts.append(try Self.parseHostName(try value()))
            case "--refresh-interval":
                do { self.refreshSchedule = try RefreshSchedule.parse(hours: try value()) } catch let error as OptionError {
                    throw error
                } catch {
                    throw OptionError("--refresh-interval: \(error)")
                }
            case "--itunes-url": self.directoryBaseURLs[.itunes] = try Self.parseBaseURL(try value(), name: flag)
            case "--podcastindex-url": self.directoryBaseURLs[.podcastindex] = try Self.parseBaseURL(try value(), name: flag)
            case "--web-root": self.webRoot = URL(fileURLWithPath: try value())
            case "--played-margin": self.playedMargin = try Self.parseMargin(try value(), name: flag)
            case "--json", "--timing", "--repeat":
                guard case .parse(var settings) = command else { throw OptionError("\(flag) goes with parse") }
                switch flag {
                case "--json": settings.json = true
                case "--timing": settings.timing = true
                default:
                    let v = try value()
                    guard let n = Int(v), n > 0 else { throw OptionError("--repeat needs a positive number, not \"\(v)\"") }
                    settings.repeats = n
                }
                self.command = .parse(settings)
            case "-h", "--help": self.command = .help
            case "--version": self.command = .version
            default: throw OptionError("unknown option \(flag)")
            }
        }
    }

    /// A directory's base address: http(s) with a host.
    static func parseBaseURL(_ text: String, name: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              !(url.host ?? "").isEmpty else { throw OptionError("\(name) must be an http or https address, not \"\(text)\"") }
        return text
    }

    /// Seconds within `PlaybackSettings.playedMarginRange`.
    static func parseMargin(_ text: String, name: String) throws -> Double {
        let range = PlaybackSettings.playedMarginRange
        guard let seconds = Double(text), range.contains(seconds) else {
            throw OptionError("\(name) must be seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not \"\(text)\"")
        }
        return seconds
    }

    /// A host name or address as a Host header would carry it, without port: letters, digits, "-",
    /// "." (and "[…:…]" for IPv6), lower-cased.
    static func parseHostName(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.[]:")
        guard !name.isEmpty, name.count <= 253, name.allSatisfy(allowed.contains),
              !name.contains(":") || (name.hasPrefix("[") && name.hasSuffix("]"))
        else { throw OptionError("--allow-host takes a host name or address without port, not \"\(text)\"") }
        return name
    }

    /// Which settings file to read: `--config FILE`, else `EARSHOT_CONFIG`, else the usual place
    /// when a file is there. `required`: named explicitly, so a missing file is an error.
    static func configurationFile(_ arguments: [String], environment: [String: String]) -> (path: String, required: Bool)? {
        if let index = arguments.firstIndex(of: "--config"), index + 1 < arguments.count { return (arguments[index + 1], true) }
        if let path = environment["EARSHOT_CONFIG"], !path.isEmpty { return (path, true) }
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { base = URL(fileURLWithPath: xdg) } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".config")
        }
        let path = base.appendingPathComponent("earshot/earshot.conf").path
        return FileManager.default.fileExists(atPath: path) ? (path, false) : nil
    }

    static func defaultDataDirectory(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("earshot")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/earshot")
    }
}

struct OptionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
