import Foundation
import Mustache

/// One test case of the official Mustache spec (`../shared/conformance/mustache-spec/*.json`).
struct MustacheSpecCase: Sendable, CustomStringConvertible {
    let module: String
    let name: String
    let template: String
    let data: MustacheValue
    let partials: [String: String]
    let expected: String

    var description: String { "\(module): \(name)" }

    /// Parses the template and its partials and renders them the way the spec describes.
    func run() throws -> String {
        let partialTemplates = try partials.mapValues { try MustacheTemplate($0) }
        return try MustacheTemplate(template).render(data, partials: partialTemplates)
    }
}

/// Loads the spec's JSON files from the shared conformance folder, which sits beside the repository.
enum MustacheSpec {
    /// The modules every Mustache implementation must pass.
    static let coreModules = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // MustacheTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .appendingPathComponent("../shared/conformance/mustache-spec")
        .standardizedFileURL

    static func cases(in modules: [String]) throws -> [MustacheSpecCase] {
        try modules.flatMap { module -> [MustacheSpecCase] in
            let data = try Data(contentsOf: directory.appendingPathComponent("\(module).json"))
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let tests = root["tests"] as? [[String: Any]] else {
                throw SpecFormatError(module: module)
            }
            return try tests.map { test in
                guard let name = test["name"] as? String,
                      let template = test["template"] as? String,
                      let expected = test["expected"] as? String else {
                    throw SpecFormatError(module: module)
                }
                return MustacheSpecCase(
                    module: module, name: name, template: template,
                    data: MustacheValue(json: test["data"] ?? NSNull()),
                    partials: test["partials"] as? [String: String] ?? [:],
                    expected: expected)
            }
        }
    }

    /// Runs every case, recording each mismatch through `check`, and returns how many passed.
    static func passedCount(of cases: [MustacheSpecCase], check: (MustacheSpecCase, String) -> Void) -> Int {
        var passed = 0
        for specCase in cases {
            let output: String
            do {
                output = try specCase.run()
            } catch {
                output = "error: \(error)"
            }
            check(specCase, output)
            if output == specCase.expected { passed += 1 }
        }
        return passed
    }
}

struct SpecFormatError: Error {
    let module: String
}
