import EarshotCore
import Foundation

/// One JSON-RPC 2.0 connection to a snapserver's control port: requests matched to their answers
/// by id, notifications (a method and no id) handed on in order. Closed for good when the
/// connection drops; `SnapcastRooms` makes a new one.
final class SnapcastClient: @unchecked Sendable {
    // @unchecked: `waiting` and `nextID` are behind `lock`.
    struct RPCError: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: LineSocket
    private let lock = NSLock()
    private var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    private var nextID = 1
    private var ended = false
    let notifications: AsyncStream<(method: String, params: JSONValue)>
    private let notify: AsyncStream<(method: String, params: JSONValue)>.Continuation

    init(host: String, port: Int) throws {
        socket = try LineSocket(host: host, port: port)
        (notifications, notify) = AsyncStream.makeStream(of: (method: String, params: JSONValue).self, bufferingPolicy: .bufferingNewest(1024))
        socket.start(onLine: { [weak self] line in self?.received(line) }, onClose: { [weak self] in self?.closed() })
    }

    /// Calls `method`; the `result`, or throws the server's error (or a lost connection).
    func request(_ method: String, _ params: JSONValue? = nil, timeout: Double = 5) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            lock.lock()
            guard !ended else {
                lock.unlock()
                continuation.resume(throwing: RPCError(description: "the connection to the snapserver is closed"))
                return
            }
            let id = nextID
            nextID += 1
            waiting[id] = continuation
            lock.unlock()
            var message: [String: JSONValue] = ["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method)]
            if let params { message["params"] = params }
            if !socket.send(String(decoding: JSONValue.object(message).jsonBytes(), as: UTF8.self)) {
                finish(id, .failure(RPCError(description: "the snapserver closed the connection")))
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(timeout))
                self?.finish(id, .failure(RPCError(description: "the snapserver did not answer \(method) within \(Int(timeout)) s")))
            }
        }
    }

    func close() { socket.close() }

    private func finish(_ id: Int, _ result: Result<JSONValue, any Error>) {
        lock.lock()
        let continuation = waiting.removeValue(forKey: id)
        lock.unlock()
        continuation?.resume(with: result)
    }

    private func received(_ line: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            Log.warning("snapcast", "the snapserver sent something that is not JSON: \(line.prefix(120))")
            return
        }
        for message in Self.messages(value) {
            guard case .object(let fields) = message else { continue }
            if let id = fields["id"]?.number {
                if case .object(let error)? = fields["error"] {
                    let detail = error["data"]?.string ?? error["message"]?.string ?? "error"
                    finish(Int(id), .failure(RPCError(description: detail)))
                } else {
                    finish(Int(id), .success(fields["result"] ?? .null))
                }
            } else if let method = fields["method"]?.string {
                notify.yield((method, fields["params"] ?? .null))
            }
        }
    }

    /// A line holds one message or a batch of them.
    static func messages(_ value: JSONValue) -> [JSONValue] {
        if case .array(let items) = value { return items }
        return [value]
    }

    private func closed() {
        lock.lock()
        ended = true
        let all = waiting
        waiting.removeAll()
        lock.unlock()
        for continuation in all.values {
            continuation.resume(throwing: RPCError(description: "the snapserver closed the connection"))
        }
        notify.finish()
    }
}
