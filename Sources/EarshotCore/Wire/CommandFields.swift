import FoundationEssentials

/// A command frame's arguments, with the readers every entry of `ClientCommand.table` uses; each
/// failure names the command and the argument, so a client is told what to send.
public struct CommandFields: Sendable {
    /// The command's wire name ("queue.add").
    public let name: String
    let fields: [String: JSONValue]

    init(name: String, fields: [String: JSONValue]) { self.name = name; self.fields = fields }

    func has(_ key: String) -> Bool { fields[key] != nil }
    func isNull(_ key: String) -> Bool { if case .null? = fields[key] { return true } else { return false } }
    func string(_ key: String) -> String? { fields[key]?.string }

    func number(_ key: String) throws(CommandError) -> Double {
        guard let value = fields[key]?.number, value.isFinite else { throw CommandError("\"\(name)\" needs a number \"\(key)\"") }
        return value
    }

    /// A number when the key is there, nil when it is not; anything else is an error.
    func optionalNumber(_ key: String) throws(CommandError) -> Double? {
        has(key) ? try number(key) : nil
    }

    /// One of `Choice`'s names when the key is there (nil when it is not). `orDefault`: null or
    /// "default" are allowed too and mean "back to the default" (`.some(nil)`).
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type,
                                                        orDefault: Bool = false) throws(CommandError) -> Choice??
    where Choice.RawValue == String {
        guard has(key) else { return nil }
        if orDefault, isNull(key) || string(key) == "default" { return .some(nil) }
        guard let raw = string(key), let value = Choice(rawValue: raw) else {
            let names = Choice.allCases.map { "\"\($0.rawValue)\"" } + (orDefault ? ["\"default\""] : [])
            throw CommandError("\"\(key)\" must be one of \(names.joined(separator: ", "))")
        }
        return .some(value)
    }

    func bool(_ key: String) throws(CommandError) -> Bool {
        guard let value = fields[key]?.bool else { throw CommandError("\"\(name)\" needs a boolean \"\(key)\"") }
        return value
    }

    /// A library id (a positive whole number); `what` names it in the error ("an episode id").
    func id(_ key: String, _ what: String? = nil) throws(CommandError) -> Int64 {
        guard let value = fields[key]?.number, Self.isID(value) else {
            throw CommandError("\"\(name)\" needs \(what ?? "an id \"\(key)\"")")
        }
        return Int64(value)
    }

    /// The playback commands' `episode`: "needs a number" when it is not one, "needs an episode id" when it is not an id.
    /// A `room`: a Snapcast client's id (a non-empty string).
    func room() throws(CommandError) -> String {
        guard let id = string("room"), !id.isEmpty, id.count <= 256 else { throw CommandError("\"\(name)\" needs \"room\": a room's id") }
        return id
    }

    func episode() throws(CommandError) -> Int64 {
        let value = try number("episode")
        guard Self.isID(value) else { throw CommandError("\"\(name)\" needs an episode id") }
        return Int64(value)
    }

    /// A position in a list (a whole number ≥ 0).
    func index(_ key: String) throws(CommandError) -> Int {
        guard let value = fields[key]?.number, value.isFinite, value == value.rounded(), value >= 0, value < 1e9
        else { throw CommandError("\"\(name)\" needs a position \"\(key)\" ≥ 0") }
        return Int(value)
    }

    /// A whole number when the key is there and not null; `.some(nil)` for null; nil when absent.
    func optionalCount(_ key: String) throws(CommandError) -> Int?? {
        switch fields[key] {
        case nil: return nil
        case .null?: return .some(nil)
        case let value?:
            guard let number = value.number, number.isFinite, number == number.rounded(), abs(number) < 1e9
            else { throw CommandError("\"\(key)\" must be a whole number or null") }
            return .some(Int(number))
        }
    }

    /// `episode` (one id) or `episodes` (a list of 1 to `limit` ids); none at all only when `optional`.
    func episodes(optional: Bool, limit: Int) throws(CommandError) -> [Int64] {
        if has("episode") { return [try id("episode")] }
        guard let value = fields["episodes"] else {
            if optional { return [] }
            throw CommandError("\"\(name)\" needs \"episode\" or \"episodes\"")
        }
        guard case .array(let list) = value, list.count <= limit, !list.isEmpty || optional else {
            throw CommandError("\"episodes\" must be a list of 1 to \(limit) episode ids")
        }
        var ids: [Int64] = []
        for item in list {
            guard let value = item.number, Self.isID(value) else { throw CommandError("\"episodes\" must hold episode ids") }
            ids.append(Int64(value))
        }
        return ids
    }

    static func isID(_ value: Double) -> Bool {
        value.isFinite && value == value.rounded() && value > 0 && value < 9e15
    }
}
