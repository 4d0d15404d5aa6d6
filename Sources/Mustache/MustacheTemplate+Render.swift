extension MustacheTemplate {
    /// Walks a node tree, appending everything to one output string.
    struct Renderer {
        /// Partials including partials stop here, so a partial that includes itself unconditionally
        /// ends in truncated output rather than a stack overflow.
        static let maximumPartialDepth = 100

        let partials: [String: MustacheTemplate]
        /// The context stack; names are looked up from the top (the end) down.
        private var stack: [MustacheValue]
        private var partialDepth = 0
        var output = ""

        init(context: MustacheValue, partials: [String: MustacheTemplate]) {
            self.partials = partials
            self.stack = [context]
        }

        /// Renders `nodes`; `indent` goes at the start of every source line (a standalone partial's indentation).
        mutating func render(_ nodes: [Node], indent: String) {
            for node in nodes {
                switch node {
                case .text(let text):
                    output += text
                case .lineStart:
                    if !indent.isEmpty { output += indent }
                case .variable(let path, let escaped):
                    interpolate(lookup(path), escaped: escaped)
                case .section(let path, let inverted, let children):
                    section(lookup(path), inverted: inverted, children, indent: indent)
                case .partial(let name, let ownIndent):
                    // A partial that shared its line with other content is not indented at all,
                    // as if its source had been pasted in place of the tag.
                    partial(name, indent: ownIndent.map { indent + $0 } ?? "")
                }
            }
        }

        private mutating func interpolate(_ value: MustacheValue, escaped: Bool) {
            let text: String
            if case .string(let string) = value { text = string } else { text = value.text }
            if escaped {
                output.appendHTMLEscaped(text)
            } else {
                output += text
            }
        }

        private mutating func section(_ value: MustacheValue, inverted: Bool, _ children: [Node], indent: String) {
            if inverted {
                if !value.isTruthy { render(children, indent: indent) }
                return
            }
            if case .array(let elements) = value {
                for element in elements {
                    stack.append(element)
                    render(children, indent: indent)
                    stack.removeLast()
                }
            } else if value.isTruthy {
                stack.append(value)
                render(children, indent: indent)
                stack.removeLast()
            }
        }

        private mutating func partial(_ name: PartialName, indent: String) {
            let resolved: String
            switch name {
            case .fixed(let fixed):
                resolved = fixed
            case .dynamic(let path):
                guard case .string(let found) = lookup(path) else { return }
                resolved = found
            }
            guard let template = partials[resolved], partialDepth < Self.maximumPartialDepth else { return }
            partialDepth += 1
            render(template.nodes, indent: indent)
            partialDepth -= 1
        }

        /// Spec name resolution: the first name is searched down the context stack; the rest are
        /// resolved only inside what it found, so `a.b` never picks up a `b` from an outer context.
        private func lookup(_ path: [String]) -> MustacheValue {
            guard let first = path.first else { return stack[stack.count - 1] }
            var found: MustacheValue?
            var level = stack.count - 1
            while level >= 0 {
                if let value = stack[level].member(first) {
                    found = value
                    break
                }
                level -= 1
            }
            guard var value = found else { return .null }
            for name in path.dropFirst() {
                guard let next = value.member(name) else { return .null }
                value = next
            }
            return value
        }
    }
}
