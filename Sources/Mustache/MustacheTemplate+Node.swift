extension MustacheTemplate {
    /// One piece of a parsed template; rendering walks a tree of these and never looks at source text.
    indirect enum Node: Sendable {
        /// Literal text, copied as is.
        case text(String)
        /// The start of a source line: where a standalone partial's indentation goes.
        case lineStart
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (raw). An empty path is `{{.}}`.
        case variable(path: [String], escaped: Bool)
        /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when `inverted`.
        case section(path: [String], inverted: Bool, children: [Node])
        /// `{{> name}}`. `indent` is the whitespace before a standalone partial tag, which goes before
        /// each line of the partial; nil when the tag shared its line with other content.
        case partial(PartialName, indent: String?)
    }

    /// How a partial tag names its template.
    enum PartialName: Sendable {
        /// `{{> name}}`: always the same template.
        case fixed(String)
        /// `{{>*name}}`: the template named by the string found at this path in the context.
        case dynamic(path: [String])
    }
}
