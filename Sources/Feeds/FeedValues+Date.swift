import FoundationEssentials

extension FeedValues {
    /// The moment an RFC 822 date (RSS `pubDate`) or, failing that, an ISO 8601 one (Atom, `dc:date`) names.
    ///
    /// RFC 822 as feeds really write it: optional weekday (`Tue,` or `Tuesday`), 1- or 2-digit day,
    /// abbreviated or full month name, 2- or 4-digit year (00–49 → 20xx, 50–99 → 19xx), time with or without
    /// seconds, zone as `+0200`/`-05:00`, `GMT`/`UT`/`UTC`/`Z` or a US zone (`EST` … `PDT`). A missing or
    /// unknown zone is UTC; a missing time is midnight. Garbage is nil.
    public static func date(_ text: String) -> Date? {
        text.withUTF8Bytes { date(bytes: $0) }
    }

    static func date(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var rfc = ByteScanner(bytes)
        if let seconds = rfc.rfc822() { return Date(timeIntervalSince1970: seconds) }
        var iso = ByteScanner(bytes)
        if let seconds = iso.iso8601() { return Date(timeIntervalSince1970: seconds) }
        return nil
    }
}

/// A cursor over bytes for the date grammars; every method leaves the cursor alone when it fails.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let range = bytes.trimmedRange()
        index = range.lowerBound
        end = range.upperBound
    }

    var atEnd: Bool { index >= end }
    var current: UInt8? { index < end ? bytes[index] : nil }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSeparators(_ extra: UInt8 = 0x20) {
        while let byte = current, isASCIIWhitespace(byte) || byte == extra { index += 1 }
    }

    /// A run of 1…`maxDigits` digits, or nil.
    mutating func number(maxDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0
        let start = index
        while let byte = current, isASCIIDigit(byte), index - start < maxDigits {
            value = value * 10 + Int(byte &- 0x30)
            index += 1
        }
        if index == start { return nil }
        if let byte = current, isASCIIDigit(byte) { index = start; return nil }  // too many digits
        return (value, index - start)
    }

    /// A run of letters as a range, lowercased first three letters packed for matching.
    mutating func word() -> (key: UInt32, length: Int)? {
        let start = index
        var key: UInt32 = 0
        while let byte = current, isASCIILetter(byte) {
            if index - start < 3 { key = key << 8 | UInt32(byte | 0x20) }
            index += 1
        }
        return index == start ? nil : (key, index - start)
    }

    // MARK: RFC 822

    mutating func rfc822() -> Double? {
        var month = 0
        var day = 0
        skipSeparators()
        if let first = word() {
            if Self.weekdays.contains(first.key) {
                skipSeparators(UInt8(ascii: ","))
            } else if let found = Self.months.firstIndex(of: first.key) {
                month = found + 1  // "Jun 10 2003 …"
                skipSeparators(UInt8(ascii: "-"))
                guard let parsedDay = number(maxDigits: 2) else { return nil }
                day = parsedDay.value
                skipSeparators(UInt8(ascii: ","))
            } else {
                return nil
            }
        }
        if month == 0 {
            guard let parsedDay = number(maxDigits: 2) else { return nil }
            day = parsedDay.value
            skipSeparators(UInt8(ascii: "-"))
            guard let name = word(), let found = Self.months.firstIndex(of: name.key) else { return nil }
            month = found + 1
            _ = skip(UInt8(ascii: "."))
            skipSeparators(UInt8(ascii: "-"))
        }
        guard let parsedYear = number(maxDigits: 4) else { return nil }
        var year = parsedYear.value
        switch parsedYear.digits {
        case 1, 2: year += year < 50 ? 2000 : 1900
        case 3: year += 1900
        default: break
        }
        skipSeparators()
        var clock = 0
        if let byte = current, isASCIIDigit(byte) {
            guard let time = timeOfDay() else { return nil }
            clock = time
        }
        skipSeparators()
        let offset = zoneOffset() ?? 0
        return Self.epochSeconds(year: year, month: month, day: day, clock: clock, offset: offset)
    }

    /// `hh:mm[:ss[.fff]]` as seconds since midnight.
    mutating func timeOfDay() -> Int? {
        guard let hour = number(maxDigits: 2), skip(UInt8(ascii: ":")),
              let minute = number(maxDigits: 2) else { return nil }
        var second = 0
        if skip(UInt8(ascii: ":")) {
            guard let parsed = number(maxDigits: 2) else { return nil }
            second = parsed.value
            if skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) {
                while let byte = current, isASCIIDigit(byte) { index += 1 }
            }
        }
        guard hour.value < 24 || (hour.value == 24 && minute.value == 0 && second == 0),
              minute.value < 60, second <= 60 else { return nil }
        return hour.value * 3600 + minute.value * 60 + second
    }

    /// A numeric (`+0200`, `-05:00`, `+02`) or named zone as seconds east of UTC; nil when absent or unknown.
    mutating func zoneOffset() -> Int? {
        guard let byte = current else { return nil }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            let sign = byte == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let hours = number(maxDigits: 4) else { return nil }
            var minutes = 0
            var wholeHours = hours.value
            if hours.digits > 2 {
                wholeHours = hours.value / 100
                minutes = hours.value % 100
            } else if skip(UInt8(ascii: ":")), let parsed = number(maxDigits: 2) {
                minutes = parsed.value
            }
            guard wholeHours < 24, minutes < 60 else { return nil }
            return sign * (wholeHours * 3600 + minutes * 60)
        }
        guard let name = word() else { return nil }
        switch (name.key, name.length) {
        case (Self.pack("gmt"), 3), (Self.pack("utc"), 3), (Self.pack("ut"), 2), (Self.pack("z"), 1):
            skipSeparators()
            return zoneOffset() ?? 0  // "GMT+2" style
        case (Self.pack("est"), 3): return -5 * 3600
        case (Self.pack("edt"), 3): return -4 * 3600
        case (Self.pack("cst"), 3): return -6 * 3600
        case (Self.pack("cdt"), 3): return -5 * 3600
        case (Self.pack("mst"), 3): return -7 * 3600
        case (Self.pack("mdt"), 3): return -6 * 3600
        case (Self.pack("pst"), 3): return -8 * 3600
        case (Self.pack("pdt"), 3): return -7 * 3600
        default: return nil
        }
    }

    // MARK: ISO 8601

    /// `YYYY-MM-DD[(T| )hh:mm[:ss[.fff]]][Z|±hh[:mm]]`; nothing may follow.
    mutating func iso8601() -> Double? {
        guard let year = number(maxDigits: 4), year.digits == 4, skip(UInt8(ascii: "-")),
              let month = number(maxDigits: 2), skip(UInt8(ascii: "-")),
              let day = number(maxDigits: 2) else { return nil }
        var clock = 0
        var offset = 0
        if skip(UInt8(ascii: "T")) || skip(UInt8(ascii: "t")) || skip(UInt8(ascii: " ")) {
            guard let time = timeOfDay() else { return nil }
            clock = time
            skipSeparators()
            if !atEnd {
                guard let zone = zoneOffset() else { return nil }
                offset = zone
            }
        }
        skipSeparators()
        guard atEnd else { return nil }
        return Self.epochSeconds(year: year.value, month: month.value, day: day.value, clock: clock, offset: offset)
    }

    // MARK: Calendar arithmetic

    static func epochSeconds(year: Int, month: Int, day: Int, clock: Int, offset: Int) -> Double? {
        guard (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year) else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + clock - offset)
    }

    static func pack(_ text: StaticString) -> UInt32 {
        var key: UInt32 = 0
        text.withUTF8Buffer { for byte in $0.prefix(3) { key = key << 8 | UInt32(byte) } }
        return key
    }

    static let weekdays: [UInt32] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map(packString)
    static let months: [UInt32] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map(packString)

    private static func packString(_ text: String) -> UInt32 {
        text.utf8.prefix(3).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
