import EarshotCore
import Foundation
import Testing
@testable import Web

/// docs/protocol.md is the wire contract: its tables must name exactly what the code declares —
/// the route table, the command table and the server's message types — and the web client's
/// `core/commands.js` must name the same commands.
@Suite("docs/protocol.md against the code")
struct ProtocolDocTests {
    static let repository = ServerHarness.repository

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines under `heading`, up to the next heading of any level.
    static func section(_ text: String, _ heading: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The backticked spans of a piece of text.
    static func ticked(_ text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static func cells(_ line: Substring) -> [Substring] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces)[...] }
    }

    struct DocRoute: Hashable { var method: String; var path: String; var who: String }

    /// Rows of every `| method | path | who | answer |` table: one per method and path.
    static func documentedRoutes() throws -> Set<DocRoute> {
        let doc = try read("docs/protocol.md")
        var rows: Set<DocRoute> = []
        let methods: Set<Substring> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = cells(line)
            guard cells.count >= 4 else { continue }
            let named = cells[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces)[...] }
            guard !named.isEmpty, named.allSatisfy(methods.contains) else { continue }
            for path in ticked(cells[1]) {
                // "/api/pairing[?host=NAME]", "/api/episodes?limit=N": the route is the path alone.
                let bare = String(path.prefix { $0 != "[" && $0 != "?" })
                for method in named { rows.insert(DocRoute(method: String(method), path: bare, who: String(cells[2]))) }
            }
        }
        return rows
    }

    static let whoWords: [RouteAccess: String] = [.anyone: "anyone", .syncClient: "sync", .pairedPage: "page", .paired: "paired", .host: "host"]

    @Test("every route in the table is in the doc with its access, and the doc names no other")
    func routes() throws {
        var code: Set<DocRoute> = []
        for route in EarshotServer.routes {
            for method in route.methods {
                code.insert(DocRoute(method: method, path: route.pattern.description, who: Self.whoWords[route.access]!))
            }
        }
        let doc = try Self.documentedRoutes()
        let missingFromDoc = code.subtracting(doc).sorted { ($0.path, $0.method) < ($1.path, $1.method) }
        let missingFromCode = doc.subtracting(code).sorted { ($0.path, $0.method) < ($1.path, $1.method) }
        #expect(missingFromDoc.isEmpty, "routes the doc does not list (or lists with another who): \(missingFromDoc)")
        #expect(missingFromCode.isEmpty, "routes the doc lists that the table does not have: \(missingFromCode)")
        #expect(code.count > 40, "the table was read: \(code.count) rows")
    }

    @Test("every command in the table is in the doc's command table, and the doc names no other")
    func commands() throws {
        let doc = try Self.read("docs/protocol.md")
        var documented: Set<String> = []
        for line in Self.section(doc, "## WebSocket `/ws`") where line.hasPrefix("| `") {
            for name in Self.ticked(Self.cells(line)[0][...]) { documented.insert(name) }
        }
        let code = Set(ClientCommand.names)
        #expect(code.subtracting(documented).isEmpty, "commands the doc does not list: \(code.subtracting(documented).sorted())")
        #expect(documented.subtracting(code).isEmpty, "commands the doc lists that the table does not decode: \(documented.subtracting(code).sorted())")
        #expect(code.count > 40)
    }

    @Test("every message type the server sends is in the doc's list, and the doc names no other")
    func messages() throws {
        let doc = try Self.read("docs/protocol.md")
        let lines = Self.section(doc, "## WebSocket `/ws`")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Server → client:") }) else {
            Issue.record("no \"Server → client:\" list"); return
        }
        var documented: Set<String> = []
        for line in lines[start...] where line.hasPrefix("- `") {
            for name in Self.ticked(line.split(separator: ",").first ?? "").prefix(2) where !name.contains("{") {
                documented.insert(name)
            }
        }
        let code = Set(ServerMessage.Kind.allCases.map(\.rawValue))
        #expect(code.subtracting(documented).isEmpty, "message types the doc does not list: \(code.subtracting(documented).sorted())")
        #expect(documented.subtracting(code).isEmpty, "message types the doc lists that ServerMessage lacks: \(documented.subtracting(code).sorted())")
    }

    @Test("the web client's core/commands.js names exactly the commands of the table")
    func clientCommands() throws {
        let js = try Self.read("Public/js/core/commands.js")
        guard let start = js.range(of: "export const Cmd"), let end = js[start.upperBound...].range(of: "});") else {
            Issue.record("core/commands.js has no `export const Cmd = Object.freeze({ … });`"); return
        }
        var named: Set<String> = []
        for line in js[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let quoted = line.split(separator: "'", omittingEmptySubsequences: false)
            if quoted.count >= 3 { named.insert(String(quoted[1])) }
        }
        let code = Set(ClientCommand.names)
        #expect(named == code, "only in commands.js: \(named.subtracting(code).sorted()); only in the table: \(code.subtracting(named).sorted())")
    }
}
