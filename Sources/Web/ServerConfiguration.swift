import EarshotCore
import Foundation

/// Where the server listens and where its files are.
public struct ServerConfiguration: Sendable {
    /// Address to bind: loopback unless the user asks for more.
    public var host: String
    /// 0 picks any free port.
    public var port: Int
    /// The web client (`Public/`).
    public var publicDirectory: URL
    /// Server-rendered pages (`Templates/`).
    public var templatesDirectory: URL
    /// `--lan`: listen on every IPv4 address (0.0.0.0), not loopback alone; LAN clients must pair.
    public var lan = false
    /// `--allow-host`: more names a request's Host may use (a reverse proxy's, a DNS name).
    public var extraHostNames: [String] = []
    /// Where each podcast directory is asked (`--itunes-url`, `--podcastindex-url`; tests point them at loopback).
    public var directoryBaseURLs: [DirectoryProvider: String] = [:]
    /// Seconds after which a directory that has not answered is "not answering": a search box waits no
    /// longer (tests of a silent directory shorten it).
    public var directoryTimeout: TimeInterval = 8
    /// The Podcast Index key and secret (`EARSHOT_PODCASTINDEX_KEY` / `_SECRET`): kept here, never sent to a browser.
    public var podcastIndexCredentials: PodcastIndexCredentials?
    /// Snapcast's rooms (nil: none).
    public var rooms: RoomsConfiguration?

    /// The address directory searches of `provider` go to.
    public func directoryBaseURL(_ provider: DirectoryProvider) -> String {
        directoryBaseURLs[provider] ?? provider.defaultBaseURL
    }

    public init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: URL, templatesDirectory: URL) {
        self.host = host; self.port = port
        self.publicDirectory = publicDirectory; self.templatesDirectory = templatesDirectory
    }

    /// The folder holding `Public/` and `Templates/`: the first ancestor of `start` that has both.
    public static func findWebRoot(from start: URL) -> URL? {
        var dir = start.standardizedFileURL
        for _ in 0..<8 {
            let fm = FileManager.default
            // The source tree (Public/ beside Package.swift), or an installed PREFIX: bin/earshot
            // beside share/earshot/{Public,Templates} (`make install`, the .deb's /usr).
            for candidate in [dir, dir.appendingPathComponent("share/earshot")] {
                if fm.fileExists(atPath: candidate.appendingPathComponent("Public").path),
                   fm.fileExists(atPath: candidate.appendingPathComponent("Templates").path) { return candidate }
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }
}
