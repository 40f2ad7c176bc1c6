import CSQLite
import Foundation

/// One SQLite connection. Read-write connections use WAL and a busy timeout so several processes
/// can write the same file; read-only connections are opened with SQLITE_OPEN_READONLY and
/// `PRAGMA query_only`, so even a statement that tries to write is refused by SQLite itself.
/// A memory connection holds a private database that no file backs.
/// Not thread-safe: `QuoteStore` serialises access.
final class SQLiteConnection {
    enum Mode: Sendable { case readWrite, readOnly, memory }

    let path: String
    let mode: Mode
    private let handle: OpaquePointer
    /// Prepared statements by their SQL, reset after each use: preparing took about half of a
    /// one-row read (the novelty check reads a few quotes and their token states per candidate).
    /// Every statement's SQL is a literal of this module, so the set is small; it is bounded anyway.
    private var statements: [String: OpaquePointer] = [:]
    /// The SQL of the kept statements now stepping.
    private var inUse: Set<String> = []
    private static let keptStatements = 64

    /// How long a writer waits for another process's lock before failing with `busy`.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    init(path: String, mode: Mode) throws {
        self.path = path
        self.mode = mode
        if mode == .readOnly, !FileManager.default.fileExists(atPath: path) {
            throw StoreError(.cannotOpen, "database \(path) does not exist (read-only connections never create it)")
        }
        var opened: OpaquePointer?
        let flags: Int32 = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        case .memory: SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX
        }
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let detail = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(opened)
            throw StoreError(StoreError.code(forSQLite: result), "cannot open database \(path): \(detail)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        do {
            // The first read of the header: a file that is not a database fails here (NOTADB),
            // before anything could be written to it.
            _ = try scalarInt("PRAGMA schema_version")
            switch mode {
            case .readOnly:
                try execute("PRAGMA query_only = ON")
            case .memory:
                try execute("PRAGMA foreign_keys = ON")
            case .readWrite:
                // SQLite silently opens a write-protected file read-only; say so up front.
                guard sqlite3_db_readonly(handle, "main") == 0 else {
                    throw StoreError(.readOnly, "database \(path) is read-only (file or folder not writable); "
                                     + "nothing can be stored")
                }
                let journal = try scalarText("PRAGMA journal_mode = WAL")
                guard journal.lowercased() == "wal" else {
                    throw StoreError(.sqlite, "database \(path) refused WAL journal mode (got \(journal))")
                }
                try execute("PRAGMA synchronous = NORMAL")
                try execute("PRAGMA foreign_keys = ON")
            }
        } catch {
            finalizeStatements()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        finalizeStatements()
        sqlite3_close_v2(handle)
    }

    private func finalizeStatements() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
    }

    /// The prepared statement of `sql`, from the cache or prepared now and kept.
    private func statement(_ sql: String) throws -> OpaquePointer {
        if let kept = statements[sql] { return kept }
        let statement = try prepare(sql)
        if statements.count >= Self.keptStatements {
            for (kept, old) in statements where !inUse.contains(kept) {
                sqlite3_finalize(old)
                statements[kept] = nil
            }
        }
        statements[sql] = statement
        return statement
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw error(prepared, lastMessage) }
        return statement
    }

    /// Runs SQL without parameters (pragmas, DDL). Never used with caller-provided text.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            let detail = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            throw error(result, detail)
        }
    }

    /// Runs one parameterised statement that returns no rows.
    func run(_ sql: String, _ parameters: [SQLValue] = []) throws {
        try query(sql, parameters) { _ in () }
    }

    /// Runs one parameterised statement and maps each row.
    @discardableResult
    func query<T>(_ sql: String, _ parameters: [SQLValue] = [], _ map: (SQLiteRow) throws -> T) throws -> [T] {
        // A statement already stepping (a query run from inside another's row mapping) gets a
        // fresh one of its own.
        let nested = inUse.contains(sql)
        let statement = try nested ? prepare(sql) : statement(sql)
        if !nested { inUse.insert(sql) }
        // Reset, so the statement holds no read lock or transaction open between uses.
        defer {
            if nested {
                sqlite3_finalize(statement)
            } else {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
                inUse.remove(sql)
            }
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let bound: Int32
            switch value {
            case .null: bound = sqlite3_bind_null(statement, index)
            case .integer(let number): bound = sqlite3_bind_int64(statement, index, number)
            case .real(let number): bound = sqlite3_bind_double(statement, index, number)
            case .text(let text): bound = sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                bound = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            }
            guard bound == SQLITE_OK else { throw error(bound, lastMessage) }
        }
        var rows: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw error(step, lastMessage) }
            rows.append(try map(SQLiteRow(statement: statement)))
        }
        return rows
    }

    func scalarInt(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int64 {
        try query(sql, parameters) { $0.int(0) }.first ?? 0
    }

    func scalarText(_ sql: String, _ parameters: [SQLValue] = []) throws -> String {
        try query(sql, parameters) { $0.text(0) }.first ?? ""
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows this connection has changed since it opened (grows with every write it commits or not).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// Writers start with BEGIN IMMEDIATE so a busy database is waited on up front (busy
    /// timeout) instead of failing half-way on a lock upgrade.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute(mode == .readOnly ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func error(_ result: Int32, _ detail: String) -> StoreError {
        let code = StoreError.code(forSQLite: result)
        let why: String
        switch code {
        case .readOnly: why = "the database file or its folder is read-only"
        case .full: why = "the disk or the database size limit is full"
        case .corrupt: why = "the file is not a valid SQLite database or is damaged (left untouched)"
        case .busy: why = "another process held the lock longer than \(Self.busyTimeoutMilliseconds) ms"
        default: why = "SQLite reported an error"
        }
        return StoreError(code, "\(path): \(why): \(detail)")
    }
}
