import EarshotCore
import Foundation

extension DownloadManager {
    /// Carries out one `download` / `download.*` command. Throws a message for the client when it cannot.
    public func handle(_ command: DownloadCommand) async throws(CommandError) {
        switch command {
        case .download(let id):
            try await request(id, automatic: false)
        case .retry(let id):
            guard let item = items[id], item.state == .failed || item.state == .paused || item.retryAt != nil else {
                throw CommandError("no failed or paused download of episode \(id) to retry")
            }
            try await request(id, automatic: false)
        case .cancel(let id):
            guard var item = items[id] else { throw CommandError("episode \(id) is not downloading") }
            do { try item.apply(.cancel, now: Date(), retry: configuration.retry) } catch { throw CommandError(error.message) } // told to the client
            stopTransfer(id)
            commit(item)
            pump()
        case .delete(let id):
            guard items[id] != nil else { throw CommandError("episode \(id) has no download") }
            delete(id)
        case .settings(let change):
            settings = try settings.applying(change)
            saveSettings()
            pump()
            await cleanUp()
        case .auto(let podcast, let newest):
            guard (try? await store.podcast(id: podcast)) != nil else { throw CommandError("no podcast with id \(podcast)") }
            settings = try settings.settingAutoDownload(podcast: podcast, count: newest)
            saveSettings()
            if let newest { await autoDownload(podcast: podcast, count: newest) }
        }
        changed()
    }

    /// Queues episode `id` (again): a new download, or a paused/failed one resumed.
    func request(_ id: Int64, automatic: Bool) async throws(CommandError) {
        if items[id] == nil {
            let found: Episode?
            do { found = try await store.episode(id: id) } catch { throw CommandError.internalFailure("could not read the library", error) }
            guard let episode = found else { throw CommandError("no episode with id \(id)") }
            let scheme = episode.mediaURL.split(separator: ":", maxSplits: 1).first?.lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw CommandError("cannot download \(episode.title): its address is not http(s)")
            }
            // Looked again after the await: another command may have queued it meanwhile.
            if items[id] == nil {
                let file = DownloadFile.relativePath(podcastID: episode.podcastID, episodeID: id, url: episode.mediaURL,
                                                     mimeType: episode.mediaType)
                let info = DownloadItem.Info(title: episode.title, podcastID: episode.podcastID,
                                             podcastTitle: episode.podcastTitle, mediaURL: episode.mediaURL)
                commit(.queued(episodeID: id, url: episode.mediaURL, enclosureLength: episode.mediaLength, file: file,
                               automatic: automatic, now: Date(), info: info))
                pump()
                return
            }
        }
        guard var item = items[id] else { return }
        do { try item.apply(.request, now: Date(), retry: configuration.retry) } catch { throw CommandError(error.message) } // told to the client
        commit(item)
        pump()
    }

    /// Stops the download if it runs and deletes its file or partial file. The library keeps a
    /// `removed` row, so auto-download leaves the episode alone from now on.
    func delete(_ id: Int64) {
        guard let item = items.removeValue(forKey: id) else { return }
        stopTransfer(id)
        PartFile.remove(partPath(item))
        PartFile.remove(finalPath(item))
        localFiles.remove(episode: id)
        persist(.remove(episode: id))
        batch.absorb(items.values)
        changed()
        pump()
    }

    func saveSettings() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(settings) else { return }
        persist(.setting(key: Self.settingsKey, value: String(decoding: data, as: UTF8.self)))
    }
}
