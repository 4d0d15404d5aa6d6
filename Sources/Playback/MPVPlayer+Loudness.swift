import CMPV
import EarshotCore
import Foundation

/// Measuring a file's loudness (EBU R128) with an mpv of its own: no sound output, decoding as
/// fast as it can through ffmpeg's `ebur128` (integrated loudness and true peak, carried in its
/// frames' metadata). A download is measured once, after it landed (issue 18: a fixed gain then
/// levels it). One thread per measurement; the caller runs them one at a time.
extension MPVPlayer {
    /// The most one measurement may take; a file that takes longer is left unmeasured.
    public static let loudnessTimeLimit: Double = 600

    /// The loudness of the file at `path`, or nil when it could not be measured (not audio, a
    /// broken file, no mpv, or longer than the time limit).
    public static func measureLoudness(path: String) async -> Loudness? {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var ended: String?
                var loudness = runLoudness(path: path, endedEarly: &ended)
                // mpv once ended a 6 s tone it measures every other time at once, in one full test run
                // (DownloadLoudnessTests found it unmeasured after 0.4 s): a file mpv gives up on is tried
                // once more, and why it gave up is logged. A file that is no audio costs one more try.
                if loudness == nil, let reason = ended {
                    Log.info("loudness", "mpv ended \(path) before its end (\(reason)); measuring it once more")
                    ended = nil
                    loudness = runLoudness(path: path, endedEarly: &ended)
                }
                continuation.resume(returning: loudness)
            }
            thread.name = "loudness-meter"
            thread.start()
        }
    }

    /// Sets `endedEarly` to mpv's reason when it gave up on the file (`end-file` before the end).
    private static func runLoudness(path: String, endedEarly: inout String?) -> Loudness? {
        if earshot_mpv_load() != nil { return nil }
        earshot_mpv_set_c_numeric()
        guard let h = earshot_mpv_create() else { return nil }
        defer { earshot_mpv_terminate_destroy(h) }
        let options: [(String, String)] = [
            ("vid", "no"), ("video", "no"), ("audio-display", "no"), ("terminal", "no"), ("config", "no"),
            ("idle", "yes"), ("ytdl", "no"), ("load-scripts", "no"), ("load-stats-overlay", "no"),
            ("load-osd-console", "no"), ("load-auto-profiles", "no"), ("access-references", "no"),
            ("ao", "null"), ("ao-null-untimed", "yes"), ("audio-pitch-correction", "no"),
            // At the end the file stays open with its filters, so their metadata can be read then.
            ("keep-open", "yes"),
            ("af", "@meter:lavfi=[ebur128=peak=true:metadata=1]"),
        ]
        for (name, value) in options where earshot_mpv_set_option_string(h, name, value) < 0 { return nil }
        guard earshot_mpv_initialize(h) >= 0 else { return nil }
        var args: [UnsafeMutablePointer<CChar>?] = [strdup("loadfile"), strdup(path), nil]
        defer { args.forEach { free($0) } }
        let sent = args.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                earshot_mpv_command_async(h, 1, $0)
            }
        }
        guard sent >= 0 else { return nil }
        // The metadata is the whole file's so far: read once the end is reached (the file stays
        // open there), it is the whole file's.
        func string(_ name: String) -> String? {
            guard let text = earshot_mpv_get_property_string(h, name) else { return nil }
            defer { earshot_mpv_free(text) }
            return String(cString: text)
        }
        var last: [String: String] = [:]
        let deadline = Date().addingTimeInterval(loudnessTimeLimit)
        // Once at the end, the metadata is read until it holds the integrated loudness: in one full
        // test run the first read at the end had none (DownloadLoudnessTests found the tone
        // unmeasured), so a read without it is tried again for up to 2 s.
        var endReached: Date?
        while Date() < deadline {
            let event = earshot_mpv_wait_event(h, 0.05)?.pointee
            if event?.event_id == MPV_EVENT_COMMAND_REPLY, event?.error ?? 0 < 0 { return nil }
            // Not audio, or broken: mpv gives up on it.
            if let event, event.event_id == MPV_EVENT_END_FILE {
                endedEarly = "\(endReason(event))"
                return nil
            }
            if event?.event_id == MPV_EVENT_SHUTDOWN { return nil }
            if endReached == nil, string("eof-reached") == "yes" { endReached = Date() }
            if let endReached {
                last = string("af-metadata/meter").map(loudnessMetadata) ?? [:]
                if last["lavfi.r128.I"] != nil || Date().timeIntervalSince(endReached) > 2 { break }
            }
        }
        guard let integrated = last["lavfi.r128.I"].flatMap(Double.init), integrated.isFinite else { return nil }
        let peaks = last.filter { $0.key.hasPrefix("lavfi.r128.true_peaks_ch") }.compactMap { Double($0.value) }
        return Loudness(integrated: integrated, truePeak: Loudness.decibels(peaks.max() ?? 0))
    }

    /// mpv prints a filter's metadata as a JSON object of strings.
    private static func loudnessMetadata(_ text: String) -> [String: String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
        return object.compactMapValues { $0 as? String }
    }
}
