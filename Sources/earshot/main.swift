import Downloads
import EarshotCore
import Foundation
import HTTPClient
import Library
import MPRIS
import Playback
import Snapcast
import Web

// Wiring only: parse options, open the library, start mpv and the server, stop cleanly.

let started = Date()
// One malloc arena shared by the threads, and a feed parse's buffers kept for the next parse
// (MemoryTrim says why).
MemoryTrim.configure()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("earshot: \(message)\n".utf8))
    exit(1)
}

let options: Options
do {
    let arguments = Array(CommandLine.arguments.dropFirst()), environment = ProcessInfo.processInfo.environment
    // The settings file (earshot.conf) is read for `serve` alone: the other commands take their
    // few flags from the command line.
    var configuration: (path: String, text: String)?
    if arguments.first.map({ $0 == "serve" || $0.hasPrefix("-") }) ?? true,
       let file = Options.configurationFile(arguments, environment: environment) {
        do { configuration = (file.path, try String(contentsOfFile: file.path, encoding: .utf8)) } catch {
            throw OptionError("cannot read the settings file \(file.path): \(error.localizedDescription)")
        }
    }
    options = try Options.parse(arguments, environment: environment, configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("earshot: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

// Commands that need no library.
switch options.command {
case .help:
    print(Options.usage)
    exit(0)
case .version:
    print("earshot \(Earshot.version)")
    exit(0)
case .parse(let settings):
    MemoryTrim.configureForOneShotCommand()
    exit(await ParseCommand.run(settings))
default:
    break
}

let libraryPath = options.dataDirectory.appendingPathComponent("library.sqlite").path
let store: LibraryStore
do { store = try LibraryStore(path: libraryPath) } catch let error as FutureMigrationError {
    fail(error.description)
} catch {
    fail("cannot open the library at \(libraryPath): \(error)\n(the file was left as it is)")
}

switch options.command {
case .subscribe(let url):
    do {
        let podcast = try await Subscriptions(store: store).subscribe(url)
        print("Subscribed to \(podcast.title) (\(podcast.episodeCount) episodes)")
        exit(0)
    } catch {
        fail(error.description)
    }
case .refresh:
    do {
        let (status, problems) = try await Subscriptions(store: store).refreshAll { _ in }
        print("\(status.done) feeds refreshed, \(status.failed) failed")
        for podcast in problems { print("failed  \(podcast.title): \(podcast.error ?? "\(podcast.status)")") }
        exit(problems.isEmpty ? 0 : 3)
    } catch {
        fail("cannot refresh: \(error)")
    }
case .importOPML(let file):
    exit(await OPMLCommand.importFile(file, store: store))
case .syncUser(let name):
    exit(await SyncUserCommand.run(name, store: store))
case .serve, .help, .version, .parse, .exportOPML:
    break
}

// The program's own folder: /proc/self/exe, since argv[0] is a bare name when run from PATH.
let executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
guard let webRoot = options.webRoot ?? ServerConfiguration.findWebRoot(from: executable)
        ?? ServerConfiguration.findWebRoot(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
else { fail("cannot find the Public/ and Templates/ folders; pass --web-root DIR") }
let publicDirectory = webRoot.appendingPathComponent("Public").standardizedFileURL
if case .exportOPML = options.command { exit(await OPMLCommand.export(store: store, webRoot: webRoot)) }

// HTTPS is verified everywhere; `--ca-file` adds a private CA to the system's roots.
var caBundle: String?
if let caFile = options.caFile {
    do { caBundle = try TrustBundle.write(privateCA: caFile, into: options.dataDirectory.appendingPathComponent("tls")) } catch {
        fail("\(error)")
    }
}
// Feeds, artwork, chapters, transcripts and the directory (FeedFetcher), and downloads.
HTTPTrust.caFile = caBundle
// Snapcast's rooms (issue 17): a snapserver of the user's, else one Earshot starts when it is
// installed. mpv reaches the rooms through SDL's "disk" audio driver writing into a link the
// server points at the snapserver's pipe (MPVPlayer+Outputs says why): both variables are set here,
// before any thread could read the environment. A writer whose pipe closes gets EPIPE, not a signal.
var rooms: RoomsConfiguration?
if !options.snapcastOff {
    let folder = options.dataDirectory.appendingPathComponent("snapcast").path
    var snapserver: RoomsConfiguration.Server?
    if let external = options.snapcast {
        snapserver = .external(host: external.host, port: external.port)
    } else if let executable = ManagedSnapserver.find() {
        snapserver = .managed(SnapcastServerConfig(folder: folder, streamPort: options.snapcastPort, controlPort: options.snapcastPort + 1,
                                                   lan: options.lan, streamName: options.snapcastStream), executable: executable)
    }
    if let snapserver {
        let link = folder + "/pipe"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try RoomsPipeLink.point(link, to: "/dev/null")
            setenv("SDL_AUDIODRIVER", "disk", 1)
            setenv("SDL_DISKAUDIOFILE", link, 1)
            setenv("SDL_DISKAUDIODELAY", String(MPVPlayer.roomsWriterSleep), 1)
            signal(SIGPIPE, SIG_IGN)
            rooms = RoomsConfiguration(server: snapserver, streamName: options.snapcastStream, pipeLink: link)
        } catch {
            Log.error("snapcast", "cannot prepare \(folder): \(error); no rooms")
        }
    }
}
let player: MPVPlayer
do { player = try MPVPlayer(audioOutput: options.audioOutput, caFile: caBundle) } catch {
    fail("cannot start mpv: \(error)")
}
// Offline copies live in DATA/downloads; the manager starts (and resumes what was running) below.
var downloadSettings = DownloadManager.Configuration(folder: options.dataDirectory.appendingPathComponent("downloads"))
// Each finished download is measured once (EBU R128) so leveling plays it at a fixed gain.
downloadSettings.measure = { path in await MPVPlayer.measureLoudness(path: path) }
let downloads = DownloadManager(store: store, configuration: downloadSettings)
let localFiles = downloads.localFiles
// A downloaded episode plays from its file (network or not). Root-relative media ("/demo/…") is
// ours: mpv reads it straight from Public/.
// The alarm goes by the wall clock; a test may start that clock elsewhere (EARSHOT_TEST_CLOCK, in
// Unix seconds: it then runs on in real time), so an alarm set for 07:30 rings seconds later.
let alarmClock: @Sendable () -> Date
if let start = ProcessInfo.processInfo.environment["EARSHOT_TEST_CLOCK"].flatMap(Double.init) {
    let began = ProcessInfo.processInfo.systemUptime
    alarmClock = { Date(timeIntervalSince1970: start + ProcessInfo.processInfo.systemUptime - began) }
} else {
    alarmClock = { Date() }
}
let engine = PlaybackEngine(player: player, store: store, resolveMedia: { url in
    if let file = localFiles.path(forMediaURL: url) { return file }
    guard url.hasPrefix("/"), !url.contains("..") else { return url }
    return publicDirectory.path + url
}, measuredLoudness: { url in localFiles.loudness(forMediaURL: url) }, clock: alarmClock)
await engine.start()
// The command line wins over the stored margin (and is stored: the web UI shows and changes it).
if let margin = options.playedMargin {
    do { try await engine.handle(.settings(playedMargin: margin)) } catch { fail("--played-margin: \(error.message)") }
}

// Every browser is a socket: lift the soft open-file limit (often 1024) towards the hard one, as
// servers do, so hundreds of clients cannot run the process out of descriptors. Capped, because
// libwebsockets sizes its descriptor tables by this limit.
var openFiles = rlimit()
let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
if getrlimit(openFilesResource, &openFiles) == 0 {
    let wanted = min(openFiles.rlim_max, 65_536)
    if openFiles.rlim_cur < wanted {
        openFiles.rlim_cur = wanted
        _ = setrlimit(openFilesResource, &openFiles)
    }
}

var configuration = ServerConfiguration(host: options.host, port: options.port, publicDirectory: publicDirectory,
                                        templatesDirectory: webRoot.appendingPathComponent("Templates"))
configuration.lan = options.lan
configuration.extraHostNames = options.allowedHosts
configuration.directoryBaseURLs = options.directoryBaseURLs
configuration.podcastIndexCredentials = options.podcastIndexCredentials
configuration.rooms = rooms
let server: EarshotServer
do {
    server = try EarshotServer(configuration: configuration, store: store, engine: engine, downloads: downloads,
                               refreshSchedule: options.refreshSchedule)
    try await server.start()
} catch {
    fail("cannot serve: \(error)")
}
// After the server, which forwards its messages: resumes downloads the last run left unfinished.
await downloads.start()
// The desktop's media keys and widget, headset buttons, KDE Connect (no session bus: a log line).
let mpris = options.mpris ? await MPRISBridge.start(server: server, engine: engine) : nil

if options.demo {
    do { _ = try await Subscriptions(store: store).subscribeDemo(publicDirectory: publicDirectory) } catch {
        Log.error("demo", "the demo podcast could not be added: \(String(reflecting: error))")
    }
}

// Quit cleanly on Ctrl-C / SIGTERM: the position is saved, mpv and the port released. Set up
// before the URL is printed: whoever reads that line may stop us at once.
let quitting = QuitSignals.start() // QuitSignals.swift: no signal is lost, however early
let elapsed = Int(Date().timeIntervalSince(started) * 1000)
print("Earshot is serving on http://\(options.host):\(server.port)/")
if options.lan { print(LANBanner.text(port: server.port)) }
fflush(nil) // a pipe is block-buffered: whoever waits for this line must see it now
FileHandle.standardError.write(Data("earshot: ready in \(elapsed) ms; library \(libraryPath); audio output \(options.audioOutput ?? "auto")\n".utf8))
// What starting took and freed (the library read, the demo's feed parsed) goes back to the system:
// the allocator keeps a parse's buffers for the next parse and no longer trims on its own.
MemoryTrim.giveBack()

for await _ in quitting { break }
mpris?.stop()
server.stop()
await downloads.shutdown()
await engine.shutdown()
exit(0)
