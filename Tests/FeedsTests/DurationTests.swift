import Testing
@testable import Feeds

@Suite struct DurationTests {
    @Test(arguments: [
        ("1:02:34", 3754.0), ("54:12", 3252), ("3600", 3600), ("90.5", 90.5),
        ("  61:08 \n", 3668), ("00:20:00", 1200), ("25:3:30", 90210), ("01:02:03.500", 3723.5),
        ("0", 0), ("00:00", 0), ("\t7\t", 7),
    ])
    func readsEveryForm(_ text: String, _ seconds: Double) {
        #expect(FeedValues.duration(text) == seconds)
    }

    @Test(arguments: [
        "", "   ", "abc", "-5", "-1:00", "1:2:3:4", "12 min", "1:", ":30", "1.2.3", "90,5", "1::2", "+5",
        "1:30pm", "٣٠",
    ])
    func garbageIsZero(_ text: String) {
        #expect(FeedValues.duration(text) == 0)
    }
}
