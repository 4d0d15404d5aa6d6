import FoundationEssentials

extension ClientCommand {
    /// Decodes `{"id": any, "cmd": NAME, ...args}` through `table`. Returns the id (echoed in the
    /// reply, as raw JSON so any type survives) together with the command or the reason it is not one.
    public static func decode(_ text: String) -> (id: JSONValue, result: Result<ClientCommand, CommandError>) {
        guard let fields = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return (.null, .failure(CommandError("malformed JSON")))
        }
        guard case .object(let object) = fields else {
            return (.null, .failure(CommandError("a command must be a JSON object")))
        }
        let id = object["id"] ?? .null
        guard let name = object["cmd"]?.string else {
            return (id, .failure(CommandError("missing \"cmd\"")))
        }
        guard let decoder = table[name] else {
            return (id, .failure(CommandError("unknown command \"\(name)\"")))
        }
        do throws(CommandError) {
            return (id, .success(try decoder(CommandFields(name: name, fields: object))))
        } catch {
            return (id, .failure(error))
        }
    }

    /// Every command's wire name, sorted (docs/protocol.md lists the same; a test holds them together).
    public static var names: [String] { table.keys.sorted() }
}
