import Foundation
import Testing
import Mustache
import TestSupport

@Suite("Template library")
struct MustacheLibraryTests {
    /// Writes `files` (relative path → contents) into a fresh directory.
    private func makeFolder(_ files: [String: String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory(prefix: "earshot-mustache")
        for (path, contents) in files {
            let url = folder.file(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test("every .mustache file in the folder and its subfolders loads by name and can be a partial")
    func loadsFolder() throws {
        let folder = try makeFolder([
            "page.mustache": """
                <html>
                {{> header}}
                <ul>
                  {{#episodes}}
                  {{> rows/episode}}
                  {{/episodes}}
                </ul>
                </html>

                """,
            "header.mustache": "<h1>{{podcast}}</h1>\n",
            "rows/episode.mustache": "<li>{{title}}</li>\n",
            "README.txt": "not a template {{#",
        ])
        defer { folder.remove() }

        let library = try MustacheLibrary(directory: folder.url)
        #expect(Set(library.templates.keys) == ["page", "header", "rows/episode"])
        let html = try library.render("page", [
            "podcast": "Night <Owls>",
            "episodes": [["title": "One"], ["title": "Two & Three"]],
        ])
        #expect(html == """
            <html>
            <h1>Night &lt;Owls&gt;</h1>
            <ul>
              <li>One</li>
              <li>Two &amp; Three</li>
            </ul>
            </html>

            """)
    }

    @Test("a template that does not parse is reported with its name and line")
    func brokenTemplate() throws {
        let folder = try makeFolder([
            "fine.mustache": "{{title}}",
            "broken.mustache": "<p>\n{{#episodes}}\n{{title}}\n",
        ])
        defer { folder.remove() }

        let error = #expect(throws: MustacheError.self) { try MustacheLibrary(directory: folder.url) }
        #expect(error?.templateName == "broken")
        #expect(error?.line == 2)
        #expect(error?.description == "broken.mustache:2: unclosed section \"episodes\"")
    }

    @Test("rendering an unknown template name throws")
    func unknownTemplate() throws {
        let library = MustacheLibrary(templates: ["page": try MustacheTemplate("hi")])
        let error = #expect(throws: MustacheError.self) { try library.render("missing", [:]) }
        #expect(error?.kind == .templateNotFound("missing"))
        #expect(try library.render("page", [:]) == "hi")
    }

    @Test("a missing folder is an error, not an empty library")
    func missingFolder() {
        let folder = TemporaryDirectory(prefix: "earshot-mustache")
        folder.remove()
        #expect(throws: (any Error).self) { try MustacheLibrary(directory: folder.url) }
    }
}
