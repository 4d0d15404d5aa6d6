import CMPV
import EarshotCore
import Foundation

extension MPVPlayer {
    /// A declared table of what Earshot observes: the index is the reply id mpv echoes back.
    struct Observed: Sendable {
        let name: String
        let format: mpv_format
        let decode: @Sendable (UnsafeMutableRawPointer?) -> MPVProperty?
    }

    static let observed: [Observed] = [
        Observed(name: "time-pos", format: MPV_FORMAT_DOUBLE) { .timePosition(double($0)) },
        Observed(name: "duration", format: MPV_FORMAT_DOUBLE) { .duration(double($0)) },
        Observed(name: "pause", format: MPV_FORMAT_FLAG) { flag($0).map(MPVProperty.paused) },
        Observed(name: "speed", format: MPV_FORMAT_DOUBLE) { double($0).map(MPVProperty.speed) },
        Observed(name: "volume", format: MPV_FORMAT_DOUBLE) { double($0).map(MPVProperty.volume) },
        Observed(name: "mute", format: MPV_FORMAT_FLAG) { flag($0).map(MPVProperty.muted) },
        Observed(name: "paused-for-cache", format: MPV_FORMAT_FLAG) { flag($0).map(MPVProperty.pausedForCache) },
        Observed(name: "seeking", format: MPV_FORMAT_FLAG) { flag($0).map(MPVProperty.seeking) },
        Observed(name: "chapter-list", format: MPV_FORMAT_NODE) { .chapters(chapters($0)) },
        Observed(name: "chapter", format: MPV_FORMAT_INT64) { data in
            data.map { .chapter(Int($0.load(as: Int64.self))) } ?? .chapter(-1)
        },
        Observed(name: "audio-device-list", format: MPV_FORMAT_NODE) { .audioDevices(audioDevices($0)) },
        Observed(name: "af-metadata/\(AudioFilterChain.silenceLabel)", format: MPV_FORMAT_NODE) { silence($0) },
    ]

    /// `af-metadata/silence` is a map of ffmpeg's frame metadata (strings): the detector's keys.
    private static func silence(_ data: UnsafeMutableRawPointer?) -> MPVProperty {
        guard let node = data?.load(as: mpv_node.self), node.format == MPV_FORMAT_NODE_MAP,
              let map = node.u.list?.pointee else { return .silence(start: nil, end: nil) }
        var start: Double?, end: Double?
        for j in 0..<Int(map.num) {
            let value = map.values[j]
            guard let key = map.keys[j], value.format == MPV_FORMAT_STRING, let text = value.u.string else { continue }
            switch String(cString: key) {
            case "lavfi.silence_start": start = Double(String(cString: text))
            case "lavfi.silence_end": end = Double(String(cString: text))
            default: break
            }
        }
        return .silence(start: start, end: end)
    }

    private static func double(_ data: UnsafeMutableRawPointer?) -> Double? {
        data.map { $0.load(as: Double.self) }
    }

    private static func flag(_ data: UnsafeMutableRawPointer?) -> Bool? {
        data.map { $0.load(as: Int32.self) != 0 }
    }

    /// chapter-list is an array of maps {title, time}.
    private static func chapters(_ data: UnsafeMutableRawPointer?) -> [Chapter] {
        guard let node = data?.load(as: mpv_node.self), node.format == MPV_FORMAT_NODE_ARRAY,
              let list = node.u.list?.pointee else { return [] }
        var result: [Chapter] = []
        for i in 0..<Int(list.num) {
            let entry = list.values[i]
            guard entry.format == MPV_FORMAT_NODE_MAP, let map = entry.u.list?.pointee else { continue }
            var title = "", start = 0.0
            for j in 0..<Int(map.num) {
                let key = String(cString: map.keys[j]!)
                let value = map.values[j]
                if key == "title", value.format == MPV_FORMAT_STRING, let s = value.u.string { title = String(cString: s) }
                if key == "time", value.format == MPV_FORMAT_DOUBLE { start = value.u.double_ }
                if key == "time", value.format == MPV_FORMAT_INT64 { start = Double(value.u.int64) }
            }
            // ID3 CHAP times can come out a hair below zero after mpv's start-time adjustment.
            result.append(Chapter(title: title.isEmpty ? "Chapter \(i + 1)" : title, start: max(0, start)))
        }
        return result
    }

    /// A TLS line arrived since the last end (and is waiting for one).
    func tlsFailurePending() -> Bool {
        lock.lock(); defer { lock.unlock() }
        return tlsFailure != nil
    }

    /// `end` (an end in error) with ffmpeg's TLS line, when one came after it.
    func withTLSFailure(_ end: MPVEvent) -> MPVEvent {
        lock.lock(); let tls = tlsFailure; tlsFailure = nil; lock.unlock()
        guard let tls else { return end }
        return .endFile(.error(Self.notTrusted(tls)))
    }

    static func notTrusted(_ line: String) -> String { "certificate not trusted (\(line))" }

    static func namesTLS(_ event: MPVEvent) -> Bool {
        if case .endFile(.error(let message)) = event { return message.hasPrefix("certificate not trusted") }
        return false
    }

    /// Decodes one event while its memory is still valid.
    func decode(_ event: mpv_event) -> MPVEvent? {
        switch event.event_id {
        case MPV_EVENT_PROPERTY_CHANGE:
            guard let property = event.data?.load(as: mpv_event_property.self),
                  Int(event.reply_userdata) < Self.observed.count else { return nil }
            let entry = Self.observed[Int(event.reply_userdata)]
            // MPV_FORMAT_NONE means "unavailable" (e.g. no file): decode with no data.
            let data = property.format == entry.format ? property.data : nil
            return entry.decode(data).map(MPVEvent.property)
        case MPV_EVENT_START_FILE: return .startFile
        case MPV_EVENT_FILE_LOADED: return .fileLoaded
        case MPV_EVENT_PLAYBACK_RESTART: return .playbackRestart
        case MPV_EVENT_SEEK: return .seek
        case MPV_EVENT_SHUTDOWN: return .shutdown
        case MPV_EVENT_END_FILE:
            let reason = Self.endReason(event)
            guard case .error = reason else { return .endFile(reason) }
            lock.lock(); let tls = tlsFailure; tlsFailure = nil; lock.unlock()
            return .endFile(tls.map { .error(Self.notTrusted($0)) } ?? reason)
        case MPV_EVENT_LOG_MESSAGE:
            // ffmpeg's TLS layer: "tls: Peer certificate failed verification" (untrusted, expired
            // or for another host alike); kept for the end-file error that follows.
            guard let message = event.data?.load(as: mpv_event_log_message.self), let prefix = message.prefix,
                  let text = message.text, String(cString: prefix) == "ffmpeg" else { return nil }
            let line = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("tls:") {
                lock.lock(); tlsFailure = line; lock.unlock()
            }
            return nil
        case MPV_EVENT_SET_PROPERTY_REPLY:
            if event.reply_userdata == Self.pauseReplyID {
                lock.lock(); pauseSetsInFlight = max(0, pauseSetsInFlight - 1); lock.unlock()
            }
            return nil
        case MPV_EVENT_COMMAND_REPLY:
            let failure = event.error < 0 ? String(cString: earshot_mpv_error_string(event.error)) : nil
            if event.reply_userdata == Self.seekReplyID { return .seekAnswered(refusal: failure) }
            return failure.map(MPVEvent.commandFailed)
        default:
            return nil
        }
    }
}

extension MPVPlayer {
    /// Why mpv ended a file, from an `end-file` event (an error with mpv's text for it).
    static func endReason(_ event: mpv_event) -> MPVEndReason {
        guard let end = event.data?.load(as: mpv_event_end_file.self) else { return .other }
        switch end.reason {
        case MPV_END_FILE_REASON_EOF: return .eof
        case MPV_END_FILE_REASON_STOP: return .stopped
        case MPV_END_FILE_REASON_ERROR: return .error(String(cString: earshot_mpv_error_string(end.error)))
        default: return .other
        }
    }
}
