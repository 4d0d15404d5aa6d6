/// A template that cannot be parsed, or a library lookup that failed.
///
/// `description` reads like a compiler diagnostic: `episode.mustache:12: unclosed section "chapters"`.
public struct MustacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A tag was opened but its closing delimiter never came.
        case unclosedTag
        /// `{{#name}}` or `{{^name}}` without a matching `{{/name}}`; the line is the opening tag's.
        case unclosedSection(String)
        /// `{{/found}}` where `{{/expected}}` was due (`expected` is nil when no section was open).
        case mismatchedSectionEnd(expected: String?, found: String)
        /// A set-delimiter tag that is not `{{=open close=}}` with two non-blank delimiters.
        case badDelimiters(String)
        /// A tag whose name is empty or contains whitespace.
        case badTagName(String)
        /// `MustacheLibrary.render` was asked for a template it does not hold.
        case templateNotFound(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The 1-based source line of the offending tag; nil for errors outside any source.
    public var line: Int?
    /// The template's name when it came from a ``MustacheLibrary``.
    public var templateName: String?

    /// Creates an error; parsing fills in `line`, the library fills in `templateName`.
    public init(_ kind: Kind, line: Int? = nil, templateName: String? = nil) {
        self.kind = kind
        self.line = line
        self.templateName = templateName
    }

    public var description: String {
        var location = templateName.map { "\($0).mustache" } ?? "template"
        if let line { location += ":\(line)" }
        return "\(location): \(message)"
    }

    private var message: String {
        switch kind {
        case .unclosedTag:
            return "tag is never closed"
        case .unclosedSection(let name):
            return "unclosed section \"\(name)\""
        case .mismatchedSectionEnd(let expected?, let found):
            return "found {{/\(found)}} where {{/\(expected)}} was expected"
        case .mismatchedSectionEnd(nil, let found):
            return "found {{/\(found)}} but no section is open"
        case .badDelimiters(let content):
            return "bad set-delimiter tag \"\(content)\" (expected {{=open close=}})"
        case .badTagName(let name):
            return "bad tag name \"\(name)\""
        case .templateNotFound(let name):
            return "no template named \"\(name)\""
        }
    }
}
