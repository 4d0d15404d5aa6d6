extension String {
    /// Without leading and trailing spaces and tabs (no CharacterSet: EarshotCore stays on FoundationEssentials).
    var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
