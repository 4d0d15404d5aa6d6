import Foundation

/// How the library turns feed details and warnings into JSON columns and back.
///
/// Keys are sorted so the same details always give the same text: a refresh compares the text to
/// decide whether a row changed, and must not rewrite one because a dictionary came out in another order.
enum LibraryJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Warnings as a column value: NULL when there are none, so lists decode nothing for most feeds.
    static func warnings(_ warnings: [String]) throws -> String? {
        warnings.isEmpty ? nil : try encode(warnings)
    }

    /// Decodes a JSON column; NULL, or text that no longer decodes (written by another version), is nil:
    /// details are extras, and a list must never fail over them.
    static func decode<T: Decodable>(_ type: T.Type, from text: String?) -> T? {
        guard let text, !text.isEmpty else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
