import EarshotCore
import Foundation
@testable import Library
import Testing
import TestSupport

@Suite("LibraryStore: paired devices")
struct DeviceStoreTests {
    @Test("a device is kept with its token's hash only, survives a reopen, is touched and removed")
    func lifecycle() async throws {
        try await withDirectory { dir in
            let path = dir.file("library.sqlite").path
            var random = SplitMix64(seed: 42)
            let token = DeviceToken.generate(using: &random)
            let paired = Date(timeIntervalSince1970: 1_800_000_000)
            var id: Int64 = 0
            do {
                let store = try LibraryStore(path: path)
                let device = try await store.addDevice(name: "Kitchen phone", tokenHash: token.hash, at: paired)
                id = device.id
                #expect(device.name == "Kitchen phone" && device.created == 1_800_000_000 && device.lastSeen == device.created)
                #expect(try await store.addDevice(name: "Twin", tokenHash: SHA256.hex("other"), at: paired).id != id)
            }
            let store = try LibraryStore(path: path)
            #expect(try await store.deviceTokenHashes().first { $0.id == id }?.hash == token.hash)
            try await store.touchDevice(id: id, at: paired.addingTimeInterval(90))
            try await store.touchDevice(id: id, at: paired.addingTimeInterval(30)) // late and older: ignored
            let listed = try await store.devices()
            #expect(listed.map(\.name) == ["Kitchen phone", "Twin"], "most recently seen first")
            #expect(listed.first?.lastSeen == 1_800_000_090)
            #expect(try await store.removeDevice(id: id))
            #expect(try await !store.removeDevice(id: id))
            #expect(try await store.devices().map(\.name) == ["Twin"])
        }
    }

    @Test("two devices cannot share a token hash")
    func uniqueHash() async throws {
        try await withDirectory { dir in
            let store = try LibraryStore(path: dir.file("library.sqlite").path)
            _ = try await store.addDevice(name: "A", tokenHash: SHA256.hex("same"))
            await #expect(throws: (any Error).self) { _ = try await store.addDevice(name: "B", tokenHash: SHA256.hex("same")) }
        }
    }
}
