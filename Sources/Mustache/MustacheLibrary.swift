import Foundation

/// A set of named templates that can include each other as partials: typically every
/// `*.mustache` file under the project's `Templates/` folder.
public struct MustacheLibrary: Sendable {
    /// The templates by name: a file's path relative to the folder without `.mustache`
    /// (`page`, or `rows/episode` for a file in a subfolder).
    public private(set) var templates: [String: MustacheTemplate]

    /// A library of already parsed templates.
    public init(templates: [String: MustacheTemplate] = [:]) {
        self.templates = templates
    }

    /// Parses every `*.mustache` file in `directory` and its subfolders.
    ///
    /// Throws the first file's read error, or a ``MustacheError`` naming the template and line
    /// that does not parse, so a broken template stops the server at start rather than on a request.
    public init(directory: URL) throws {
        let suffix = ".mustache"
        var templates: [String: MustacheTemplate] = [:]
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        for file in files.sorted() where file.hasSuffix(suffix) {
            let name = String(file.dropLast(suffix.count))
            let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            do {
                templates[name] = try MustacheTemplate(source)
            } catch var error as MustacheError {
                error.templateName = name
                throw error
            }
        }
        self.templates = templates
    }

    /// The template called `name`, if the library holds one.
    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    /// Adds or replaces the template called `name`.
    public mutating func register(_ template: MustacheTemplate, named name: String) {
        templates[name] = template
    }

    /// Renders the template called `name` against `context`, with the whole library as its partials.
    ///
    /// Throws ``MustacheError/Kind/templateNotFound(_:)`` for an unknown name.
    public func render(_ name: String, _ context: MustacheValue) throws -> String {
        guard let template = templates[name] else {
            throw MustacheError(.templateNotFound(name))
        }
        return template.render(context, partials: templates)
    }
}
