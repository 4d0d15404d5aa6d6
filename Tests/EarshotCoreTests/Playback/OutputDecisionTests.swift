import EarshotCore
import Foundation
import Testing

@Suite struct OutputDecisionTests {
    let auto = AudioDevice(name: "auto", description: "Autoselect device")
    let speakers = AudioDevice(name: "pulse/speakers", description: "Built-in speakers")
    let headphones = AudioDevice(name: "pulse/usb-headphones", description: "USB headphones")

    @Test func theDeviceInUseLeavingWhilePlayingPausesAndSaysWhich() {
        let decision = OutputDecision.afterChange(before: [auto, speakers, headphones], after: [auto, speakers],
                                                  chosen: headphones.name, active: headphones.name, playing: true)
        #expect(decision == .fallBack(pause: true, notice: "Paused: USB headphones was disconnected."))
    }

    @Test func leavingWhilePausedFallsBackWithoutPausing() {
        let decision = OutputDecision.afterChange(before: [auto, headphones], after: [auto],
                                                  chosen: headphones.name, active: headphones.name, playing: false)
        #expect(decision == .fallBack(pause: false, notice: "USB headphones was disconnected."))
    }

    @Test func anotherDeviceLeavingChangesNothing() {
        #expect(OutputDecision.afterChange(before: [auto, speakers, headphones], after: [auto, headphones],
                                           chosen: headphones.name, active: headphones.name, playing: true) == .keep)
        // "auto" follows the system: a device list change is the system's business.
        #expect(OutputDecision.afterChange(before: [auto, speakers], after: [auto],
                                           chosen: "auto", active: "auto", playing: true) == .keep)
    }

    @Test func aRememberedDeviceMpvNeverListedFallsBackSilently() {
        // The first list after start: the chosen device is not plugged in today.
        #expect(OutputDecision.afterChange(before: [], after: [auto, speakers], chosen: headphones.name,
                                           active: headphones.name, playing: false) == .fallBack(pause: false, notice: nil))
    }

    @Test func theChosenDeviceComingBackIsUsedAgainWithoutResuming() {
        #expect(OutputDecision.afterChange(before: [auto], after: [auto, headphones], chosen: headphones.name,
                                           active: "auto", playing: false) == .restore(headphones.name))
        #expect(OutputDecision.afterChange(before: [auto], after: [auto, speakers], chosen: headphones.name,
                                           active: "auto", playing: true) == .keep)
    }

    @Test func atStartAGoneDeviceIsReplacedByAuto() {
        #expect(OutputDecision.atStart(chosen: headphones.name, devices: [auto, speakers]) == "auto")
        #expect(OutputDecision.atStart(chosen: headphones.name, devices: [auto, headphones]) == headphones.name)
        #expect(OutputDecision.atStart(chosen: headphones.name, devices: []) == headphones.name, "no list yet: try it")
        #expect(OutputDecision.atStart(chosen: "auto", devices: [auto]) == "auto")
    }

    @Test func outputCommandDecodes() throws {
        let (_, result) = ClientCommand.decode(#"{"id":1,"cmd":"output","device":"pulse/usb-headphones"}"#)
        #expect(try result.get() == .output(device: "pulse/usb-headphones"))
        let (_, missing) = ClientCommand.decode(#"{"id":2,"cmd":"output"}"#)
        #expect(throws: CommandError.self) { try missing.get() }
        let (_, empty) = ClientCommand.decode(#"{"id":3,"cmd":"output","device":""}"#)
        #expect(throws: CommandError.self) { try empty.get() }
    }
}

@Suite struct ArtworkKeyTests {
    @Test func keysAreSixteenHexDigitsOfHttpAddressesOnly() throws {
        let key = try #require(ArtworkAddress.key(for: "https://example.com/cover.jpg"))
        #expect(key.count == 16 && ArtworkAddress.isKey(key))
        #expect(ArtworkAddress.key(for: "https://example.com/cover.jpg") == key, "stable")
        #expect(ArtworkAddress.key(for: "https://example.com/cover.png") != key)
        #expect(ArtworkAddress.key(for: "HTTP://example.com/a.jpg") != nil)
        for refused in ["/demo/artwork.png", "file:///etc/passwd", "data:image/png;base64,AAAA", "ftp://x/y.jpg", ""] {
            #expect(ArtworkAddress.key(for: refused) == nil, "\(refused)")
        }
        #expect(ArtworkAddress.path(for: "https://example.com/cover.jpg") == "/artwork/\(key)")
        #expect(ArtworkAddress.path(for: nil) == nil)
    }

    @Test func keysAreFNV1a64() {
        // The reference loop below, checked against FNV's published vector for "a" first.
        #expect(fnv("a") == "af63dc4c8601ec8c")
        for url in ["http://a", "https://cdn.example.com/images/cover-3000.jpg?v=2", "https://例え.jp/画像.png"] {
            #expect(ArtworkAddress.key(for: url) == fnv(url), "\(url)")
        }
    }

    @Test func onlyKeyShapedTextIsAKey() {
        #expect(ArtworkAddress.isKey("0123456789abcdef"))
        for bad in ["0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "../../etc/passwd", "0123456789abcdeg"] {
            #expect(!ArtworkAddress.isKey(bad), "\(bad)")
        }
    }

    @Test func sizesPickTheSmallestLargeEnough() {
        #expect(ArtworkAddress.size(atLeast: 40) == 96)
        #expect(ArtworkAddress.size(atLeast: 96) == 96)
        #expect(ArtworkAddress.size(atLeast: 200) == 256)
        #expect(ArtworkAddress.size(atLeast: 2000) == 512)
    }

    /// An independent FNV-1a 64 (the textbook loop over bytes) to check the implementation against.
    private func fnv(_ text: String) -> String {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in Array(text.utf8) { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

@Suite struct EarlyEndTests {
    @Test func aStreamEndingWellBeforeItsLengthDropped() throws {
        let reason = try #require(EarlyEnd.reason(position: 3.2, duration: 120, isRemote: true))
        #expect(reason == "the stream ended at 0:03 of 2:00 (the connection dropped)")
        #expect(EarlyEnd.reason(position: 1800, duration: 3903, isRemote: true)?.contains("30:00 of 1:05:03") == true)
    }

    @Test func endsNearTheEndLocalFilesAndUnknownLengthsAreEnds() {
        #expect(EarlyEnd.reason(position: 118, duration: 120, isRemote: true) == nil, "the end")
        #expect(EarlyEnd.reason(position: 100, duration: 120, isRemote: true) == nil, "within 30 s: a VBR estimate")
        #expect(EarlyEnd.reason(position: 3200, duration: 3500, isRemote: true) == nil, "past 90 %")
        #expect(EarlyEnd.reason(position: 3, duration: 120, isRemote: false) == nil, "a local file")
        #expect(EarlyEnd.reason(position: 3, duration: 0, isRemote: true) == nil, "length unknown")
        #expect(EarlyEnd.reason(position: .nan, duration: 120, isRemote: true) == nil)
    }
}

@Suite struct ResilienceStateWireTests {
    @Test func failuresNoticeAndOutputsGoOnTheWire() throws {
        var state = PlaybackState()
        state.failures = [7: "could not play Seven: loading failed"]
        state.notice = "Paused: USB headphones was disconnected."
        state.outputs = [AudioDevice(name: "auto", description: "Autoselect device")]
        state.output = "pulse/usb"
        let text = ServerMessage.state(seq: 1, state).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["failures"] as? [String: String] == ["7": "could not play Seven: loading failed"])
        #expect(json["notice"] as? String == "Paused: USB headphones was disconnected.")
        #expect(json["outputs"] as? [[String: String]] == [["name": "auto", "description": "Autoselect device"]])
        #expect(json["output"] as? String == "pulse/usb")
    }
}
