import Foundation
import Testing
@testable import Feeds

/// Expected values were computed with Python's `email.utils` (RFC 822) and `datetime` (ISO 8601).
@Suite struct DateTests {
    @Test(arguments: [
        ("Tue, 10 Jun 2003 04:00:00 GMT", 1_055_217_600),
        ("Tue, 10 Jun 2003 04:00:00 +0200", 1_055_210_400),
        ("Tue, 10 Jun 2003 04:00:00 -0500", 1_055_235_600),
        ("Tue, 10 Jun 2003 04:00:00 -05:00", 1_055_235_600),
        ("Tue, 10 Jun 2003 04:00:00 EST", 1_055_235_600),
        ("Tue, 10 Jun 2003 04:00:00 EDT", 1_055_232_000),
        ("Tue, 10 Jun 2003 04:00:00 CST", 1_055_239_200),
        ("Tue, 10 Jun 2003 04:00:00 CDT", 1_055_235_600),
        ("Tue, 10 Jun 2003 04:00:00 MST", 1_055_242_800),
        ("Tue, 10 Jun 2003 04:00:00 MDT", 1_055_239_200),
        ("Tue, 10 Jun 2003 04:00:00 PST", 1_055_246_400),
        ("Tue, 10 Jun 2003 04:00:00 PDT", 1_055_242_800),
        ("Tue, 10 Jun 2003 04:00:00 UT", 1_055_217_600),
        ("Tue, 10 Jun 2003 04:00:00 UTC", 1_055_217_600),
        ("Tue, 10 Jun 2003 04:00:00 Z", 1_055_217_600),
        ("Tue, 10 Jun 2003 04:00:00", 1_055_217_600),
        ("10 Jun 2003 04:00:00 GMT", 1_055_217_600),
        ("Tue, 3 Jun 2003 04:00:00 GMT", 1_054_612_800),
        ("Tue, 10 Jun 2003 04:00 GMT", 1_055_217_600),
        ("Tue, 10 Jun 03 04:00:00 GMT", 1_055_217_600),
        ("10 Jun 99 04:00:00 GMT", 928_987_200),
        ("Tuesday, 10 June 2003 04:00:00 GMT", 1_055_217_600),
        ("  tue, 10 JUN 2003 04:00:00 gmt \n", 1_055_217_600),
        ("Fri, 21 Nov 1997 09:55:06 -0600", 880_127_706),
        ("Mon, 02 May 1960 09:05:01 +0100", -305_049_299),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Sat, 29 Feb 2020 23:59:59 +0000", 1_583_020_799),
    ])
    func readsRFC822(_ text: String, _ epoch: Int) {
        #expect(FeedValues.date(text) == Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    @Test(arguments: [
        ("2003-12-13T18:30:02Z", 1_071_340_202),
        ("2003-12-13T00:00:00+02:00", 1_071_266_400),
        ("2003-12-13T18:30:02.25-05:00", 1_071_358_202),  // fractions of a second are dropped
        ("2003-12-13T18:30:02-0500", 1_071_358_202),
        ("2003-12-13", 1_071_273_600),
    ])
    func fallsBackToISO8601(_ text: String, _ epoch: Int) {
        #expect(FeedValues.date(text) == Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    @Test(arguments: [
        "", "   ", "yesterday", "Tue, 10 Foo 2003 04:00:00 GMT", "Tue, 32 Jun 2003 04:00:00 GMT",
        "Tue, 10 Jun 2003 25:00:00 GMT", "Tue, 10 Jun 2003 04:61:00 GMT", "2003-13-01", "2003-12-13T18:30:02 junk",
        "10 Jun", "1055217600", "Tue, , 2003",
    ])
    func garbageIsNil(_ text: String) {
        #expect(FeedValues.date(text) == nil)
    }
}
