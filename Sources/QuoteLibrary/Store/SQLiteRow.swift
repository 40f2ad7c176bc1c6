import CSQLite

/// Read access to the current row of a stepping statement (valid only inside the row callback).
public struct SQLiteRow {
    let statement: OpaquePointer

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: bytes)
    }

    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    public func blob(_ column: Int32) -> [UInt8]? {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return nil }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The blob's bytes without copying them (empty for NULL), valid only inside the row callback.
    public func blobBytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: bytes, count: count)
    }
}
