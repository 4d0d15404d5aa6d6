import Foundation

/// A Swift value that can be bound to a statement parameter.
///
/// Conforming types: `Int64`, `Int`, `Double`, `String`, `Bool` (stored as 0/1), `Date`
/// (stored as REAL Unix seconds) and any `Optional` of them (`nil` binds SQL NULL).
public protocol StatementBindable {
    /// Binds `self` to the 1-based parameter `index` of `statement`.
    func bind(to statement: Statement, at index: Int32) throws
}

extension Int64: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Int: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
}

extension Double: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension String: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Bool: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Date: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws {
        try statement.bind(timeIntervalSince1970, at: index)
    }
}

extension Optional: StatementBindable where Wrapped: StatementBindable {
    public func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case .some(let value): try value.bind(to: statement, at: index)
        case .none: try statement.bindNull(at: index)
        }
    }
}
