import EarshotCore
import Foundation
import Testing

@Suite("Sync: subscription uploads and credentials")
struct SubscriptionUploadTests {
    func decode(_ json: String) throws -> SubscriptionUpload {
        try SubscriptionUpload.decode(JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test("cleaned as gpodder.net cleans: trimmed, feed:// to http://, non-web dropped, each change reported")
    func cleaning() throws {
        let upload = try decode(#"{"add":[" https://a.example/f.xml ","feed://b.example/rss","ftp://c.example/x","https://a.example/f.xml"],"remove":["https://d.example/x"]}"#)
        #expect(upload.add == ["https://a.example/f.xml", "http://b.example/rss"])
        #expect(upload.remove == ["https://d.example/x"])
        #expect(upload.updatedURLs == [[" https://a.example/f.xml ", "https://a.example/f.xml"], ["feed://b.example/rss", "http://b.example/rss"],
                                       ["ftp://c.example/x", ""]])
        #expect(try decode("{}") == SubscriptionUpload(add: [], remove: []))
    }

    @Test("refused: not {add, remove} arrays of strings, or one address both added and removed")
    func refusals() {
        #expect(throws: SubscriptionUploadError.shape) { try decode("[]") }
        #expect(throws: SubscriptionUploadError.shape) { try decode(#"{"add":"https://a.example"}"#) }
        #expect(throws: SubscriptionUploadError.shape) { try decode(#"{"add":[3]}"#) }
        #expect(throws: SubscriptionUploadError.both("https://a.example/f")) { try decode(#"{"add":["https://a.example/f"],"remove":["https://a.example/f"]}"#) }
    }

    @Test("Basic credentials and the session cookie are read; anything else is not")
    func credentials() {
        let ann = SyncCredentials(user: "ann", password: "pa:ss wörd")
        #expect(SyncCredentials.basic(ann.basicHeader) == ann, "a colon in the password stays in it; UTF-8 kept")
        #expect(SyncCredentials.basic("basic " + ann.basicHeader.dropFirst(6)) == ann, "the scheme in any case")
        #expect(SyncCredentials.basic("Bearer abc") == nil)
        #expect(SyncCredentials.basic("Basic !!!") == nil)
        #expect(SyncCredentials.basic("Basic " + Data("nocolon".utf8).base64EncodedString()) == nil)
        let token = String(repeating: "ab", count: 32)
        #expect(SyncCredentials.session(inCookieHeader: "a=1; sessionid=\(token)") == token)
        #expect(SyncCredentials.session(inCookieHeader: "earshot_device=\(token)") == nil, "the pairing cookie is not a sync session")
        #expect(SyncCredentials.session(inCookieHeader: "sessionid=short") == nil)
        #expect(SyncCredentials.setSessionCookie(token).contains("Path=/"), "AntennaPod and mygpoclient send it to every path only then")
    }

    @Test("user names and device ids as gpodder.net allows them")
    func names() {
        #expect(SyncUserName.clean(" ann ") == "ann")
        #expect(SyncUserName.clean("a.b-c_d9") == "a.b-c_d9")
        for bad in ["", ".hidden", "a b", "ann/x", "ännä", String(repeating: "a", count: 65)] { #expect(SyncUserName.clean(bad) == nil, "\(bad)") }
        #expect(SyncDeviceID.clean("antennapod_pixel-7") == "antennapod_pixel-7")
        #expect(SyncDeviceID.clean("a/b") == nil)
    }
}
