import EarshotCore
import Foundation
import Testing
import TestSupport

/// The alarm's decisions (issue 18): when it rings next, how loud it is while it rises, and what
/// the wire accepts.
struct AlarmTests {
    static let berlin: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    @Test("property: the next ring is after now, on one of its days at its time, and no such moment comes before it")
    func next() throws {
        var random = SplitMix64(seed: 1805)
        let calendar = Self.berlin
        for _ in 0..<400 {
            let days = (1...7).filter { _ in random.next() % 2 == 0 }
            guard !days.isEmpty else { continue }
            let alarm = try Alarm(time: String(format: "%02d:%02d", Int(random.next() % 24), Int(random.next() % 60)), days: days, podcasts: nil)
            // Any moment of 2026 (clock changes included).
            let now = Date(timeIntervalSince1970: 1_767_222_000 + Double(random.next() % 31_536_000))
            let ring = try #require(alarm.next(after: now, calendar: calendar))
            #expect(ring > now)
            let parts = calendar.dateComponents([.hour, .minute, .second, .weekday], from: ring)
            #expect(parts.hour == alarm.hour && parts.minute == alarm.minute && parts.second == 0)
            #expect(alarm.days.contains(Alarm.isoWeekday(parts.weekday!)))
            // No earlier ring: the alarm's time on each day from today until it is not one of its days.
            let today = calendar.startOfDay(for: now)
            for offset in 0...14 {
                let day = calendar.date(byAdding: .day, value: offset, to: today)!
                guard let candidate = calendar.date(bySettingHour: alarm.hour, minute: alarm.minute, second: 0, of: day),
                      candidate > now, candidate < ring else { continue }
                let exists = calendar.component(.hour, from: candidate) == alarm.hour
                #expect(!exists || !alarm.days.contains(Alarm.isoWeekday(calendar.component(.weekday, from: candidate))),
                        "\(candidate) rings before \(ring)")
            }
        }
    }

    @Test("a Monday-to-Friday 07:30 alarm: Friday evening rings on Monday; 07:30 itself is past at 07:30")
    func weekdays() throws {
        let alarm = try Alarm(time: "07:30", days: [1, 2, 3, 4, 5], podcasts: nil)
        let friday = Self.berlin.date(from: DateComponents(year: 2026, month: 12, day: 4, hour: 20))!
        let monday = Self.berlin.date(from: DateComponents(year: 2026, month: 12, day: 7, hour: 7, minute: 30))!
        #expect(alarm.next(after: friday, calendar: Self.berlin) == monday)
        let next = alarm.next(after: monday, calendar: Self.berlin)
        #expect(next == monday.addingTimeInterval(86_400), "rung at 07:30 Monday: Tuesday next")
        // 02:30 on the last Sunday of March does not exist in Berlin: that Sunday is passed over.
        let early = try Alarm(time: "02:30", days: [7], podcasts: nil)
        let saturday = Self.berlin.date(from: DateComponents(year: 2026, month: 3, day: 28, hour: 12))!
        let ring = try #require(early.next(after: saturday, calendar: Self.berlin))
        #expect(Self.berlin.dateComponents([.month, .day, .hour, .minute], from: ring) == DateComponents(month: 4, day: 5, hour: 2, minute: 30))
    }

    @Test("the volume rises from silence to the listener's over 60 s, ever louder")
    func ramp() {
        #expect(Alarm.rampLevel(elapsed: 0) == 0)
        #expect(Alarm.rampLevel(elapsed: 30) == 0.5)
        #expect(Alarm.rampLevel(elapsed: 60) == 1 && Alarm.rampLevel(elapsed: 600) == 1)
        let levels = stride(from: 0.0, through: 60, by: 0.5).map(Alarm.rampLevel)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("on the wire: time, days and podcasts checked, each mistake named")
    func wire() throws {
        let set = ClientCommand.decode(#"{"cmd":"alarm.set","time":"06:45","days":[5,1,1],"podcasts":[3,3,9]}"#).result
        #expect(set == .success(.alarmSet(try Alarm(time: "06:45", days: [1, 5], podcasts: [3, 9]))))
        if case .success(.alarmSet(let alarm)) = set { #expect(alarm.days == [1, 5] && alarm.podcasts == [3, 9]) }
        #expect(ClientCommand.decode(#"{"cmd":"alarm.set","time":"06:45","days":[7],"podcasts":null}"#).result
            == .success(.alarmSet(try Alarm(time: "06:45", days: [7], podcasts: nil))))
        for (frame, message) in [
            (#"{"cmd":"alarm.set","time":"24:00","days":[1]}"#, #""time" must be "HH:MM", 00:00 to 23:59"#),
            (#"{"cmd":"alarm.set","time":"7:30","days":[1]}"#, #""time" must be "HH:MM", 00:00 to 23:59"#),
            (#"{"cmd":"alarm.set","time":"07:30","days":[]}"#, #""days" must list weekdays 1 (Monday) to 7 (Sunday)"#),
            (#"{"cmd":"alarm.set","time":"07:30","days":[0]}"#, #""days" must list weekdays 1 (Monday) to 7 (Sunday)"#),
            (#"{"cmd":"alarm.set","time":"07:30","days":[1],"podcasts":[]}"#, #""podcasts" must list podcast ids, or be null for Up Next"#),
            (#"{"cmd":"alarm.set","time":"07:30","days":[1],"podcasts":[-1]}"#, #""podcasts" must list podcast ids, or be null for Up Next"#),
            (#"{"cmd":"alarm.set","days":[1]}"#, #""alarm.set" needs a time "time" ("HH:MM")"#),
        ] {
            #expect(ClientCommand.decode(frame).result == .failure(CommandError(message)), "\(frame)")
        }
        #expect(ClientCommand.decode(#"{"cmd":"alarm.cancel"}"#).result == .success(.alarmCancel))
    }
}
