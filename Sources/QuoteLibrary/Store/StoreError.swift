import CSQLite

/// A storage failure with a stable code and a message naming the database file and the cause.
public struct StoreError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Code: String, Sendable {
        case cannotOpen, corrupt, readOnly, full, busy, constraint
        case schemaTooNew, invalidArgument, sqlite
    }
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "store error [\(code.rawValue)]: \(message)" }

    /// Maps an SQLite result code (primary or extended) to a code callers can act on.
    static func code(forSQLite result: Int32) -> Code {
        switch result & 0xFF {
        case SQLITE_CANTOPEN: return .cannotOpen
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_READONLY: return .readOnly
        case SQLITE_FULL: return .full
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CONSTRAINT: return .constraint
        default: return .sqlite
        }
    }
}
