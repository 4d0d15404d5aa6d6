import EarshotCore
import Testing
import TestSupport

@Suite("Sync: timestamps as clients write them")
struct SyncTimeTests {
    @Test("gpodder.net's and AntennaPod's form, and the variants other clients send")
    func parsing() {
        #expect(SyncTime.parse("1970-01-01T00:00:00") == 0)
        #expect(SyncTime.parse("2009-12-12T09:00:00") == 1_260_608_400)
        #expect(SyncTime.parse("2009-12-12T09:00:00Z") == 1_260_608_400)
        #expect(SyncTime.parse("2009-12-12 09:00:00") == 1_260_608_400)
        #expect(SyncTime.parse("2009-12-12T10:00:00+01:00") == 1_260_608_400)
        #expect(SyncTime.parse("2009-12-12T04:30:00-0430") == 1_260_608_400)
        #expect(SyncTime.parse("2009-12-12T09:00:00.250Z") == 1_260_608_400.25)
        #expect(SyncTime.parse("2024-02-29T12:00:00") != nil, "a leap day")
        for bad in ["", "2009-12-12", "2009-12-12T09:00", "2023-02-29T00:00:00", "2009-13-01T00:00:00", "2009-12-12T24:00:00",
                    "2009-12-12T09:00:00Q", "2009-12-12T09:00:00+", "2009-12-12T09:00:00.", "1260608400", "2009-12-12T09:00:00 Z"] {
            #expect(SyncTime.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("written as YYYY-MM-DDTHH:MM:SS (UTC, no zone) and read back, for any second in 1970…2200")
    func roundTrip() {
        var random = SplitMix64(seed: 16)
        for _ in 0..<5000 {
            let seconds = Double(random.next() % 7_258_118_400)
            let text = SyncTime.format(seconds)
            #expect(text.count == 19 && !text.hasSuffix("Z"), "\(text)")
            #expect(SyncTime.parse(text) == seconds, "\(seconds) → \(text)")
        }
        #expect(SyncTime.format(1_260_608_400.9) == "2009-12-12T09:00:00", "whole seconds, cut")
    }

    @Test("since: absent is 0, fractions cut, negatives 0, anything else refused")
    func since() {
        #expect(SyncTime.since(nil) == 0)
        #expect(SyncTime.since("") == 0)
        #expect(SyncTime.since("1700000000") == 1_700_000_000)
        #expect(SyncTime.since("1700000000.9") == 1_700_000_000)
        #expect(SyncTime.since("-5") == 0)
        #expect(SyncTime.since("yesterday") == nil)
        #expect(SyncTime.since("nan") == nil)
    }
}
