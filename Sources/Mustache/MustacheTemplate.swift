/// A parsed Mustache template: parse once with ``init(_:)``, render many times.
///
/// Implements the whole core of the Mustache spec (interpolation, sections, inverted sections,
/// comments, partials, set delimiters, standalone lines) plus dynamic partial names
/// (`{{>*name}}`); lambdas and inheritance are not supported.
public struct MustacheTemplate: Sendable {
    let nodes: [Node]
    /// The source's size in bytes: a cheap first guess at the output's size.
    private let sourceSize: Int

    /// Parses `source`, throwing a ``MustacheError`` with the line of the first problem: an unclosed
    /// tag or section, a closing tag that does not match, a bad set-delimiter tag or tag name.
    public init(_ source: String) throws {
        var parser = Parser(source)
        nodes = try parser.parse()
        sourceSize = source.utf8.count
    }

    /// Renders the template against `context`.
    ///
    /// `partials` are the templates `{{> name}}` may include, by name (partials of partials come from
    /// the same dictionary); a missing partial renders as nothing, as the spec says.
    public func render(_ context: MustacheValue, partials: [String: MustacheTemplate] = [:]) -> String {
        var renderer = Renderer(context: context, partials: partials)
        renderer.output.reserveCapacity(sourceSize * 2)
        renderer.render(nodes, indent: "")
        return renderer.output
    }
}
