/// Convenience for the common shapes of a query, all on cached statements.
extension Database {
    /// Runs one statement with `arguments` bound in order, discarding any rows.
    public func run(_ sql: String, _ arguments: [any StatementBindable] = []) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Every row of the query, each turned into a value by `row` (which reads the current row's columns).
    public func fetchAll<T>(_ sql: String, _ arguments: [any StatementBindable] = [],
                            row: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// The first row of the query turned into a value by `row`, or nil when there is none.
    public func fetchOne<T>(_ sql: String, _ arguments: [any StatementBindable] = [],
                            row: (Statement) throws -> T) throws -> T? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? try row(statement) : nil
    }
}
