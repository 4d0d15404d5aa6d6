import EarshotCore
import Foundation

extension EarshotServer {
    /// `GET /api/stats?period=week|month|all` (default week): listening time, episodes finished
    /// and time saved, from the listening log (issue 18).
    func listeningStats(_ request: HTTPRequest) async throws -> HTTPResponse {
        let asked = request.query["period"] ?? StatsPeriod.week.rawValue
        guard let period = StatsPeriod(rawValue: asked) else {
            throw HTTPError.badRequest("period must be week, month or all")
        }
        return try .json(try await engine.listeningStats(period))
    }
}
