/// The value types a GGUF metadata entry can hold (the numbers are the file's type codes).
public enum GGUFValueType: UInt32, Sendable {
    case uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, uint32 = 4, int32 = 5, float32 = 6, bool = 7
    case string = 8, array = 9, uint64 = 10, int64 = 11, float64 = 12

    /// Bytes one value occupies in the file; strings and arrays take at least their length field.
    var minimumSize: Int {
        switch self {
        case .uint8, .int8, .bool: 1
        case .uint16, .int16: 2
        case .uint32, .int32, .float32: 4
        case .uint64, .int64, .float64, .string: 8
        case .array: 12
        }
    }
}

/// One metadata value.
public enum GGUFValue: Sendable, Equatable {
    case uint8(UInt8), int8(Int8), uint16(UInt16), int16(Int16), uint32(UInt32), int32(Int32)
    case float32(Float), bool(Bool), string(String), uint64(UInt64), int64(Int64), float64(Double)
    case array(GGUFValueType, [GGUFValue])

    public var type: GGUFValueType {
        switch self {
        case .uint8: .uint8
        case .int8: .int8
        case .uint16: .uint16
        case .int16: .int16
        case .uint32: .uint32
        case .int32: .int32
        case .float32: .float32
        case .bool: .bool
        case .string: .string
        case .uint64: .uint64
        case .int64: .int64
        case .float64: .float64
        case .array: .array
        }
    }

    /// The value as an integer when it is any integer type (files disagree on widths).
    public var integer: Int64? {
        switch self {
        case .uint8(let v): Int64(v)
        case .int8(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint64(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .int64(let v): v
        default: nil
        }
    }

    public var float: Double? {
        switch self {
        case .float32(let v): Double(v)
        case .float64(let v): v
        default: integer.map(Double.init)
        }
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [GGUFValue]? { if case .array(_, let a) = self { a } else { nil } }

    /// A short human-readable rendering (arrays abbreviated), for `inspect`.
    public var summary: String {
        switch self {
        case .string(let s): s.count > 80 ? "\"\(s.prefix(77))...\" (\(s.utf8.count) bytes)" : "\"\(s)\""
        case .array(let t, let a):
            "[\(t)] × \(a.count)" + (a.isEmpty ? "" : ": " + a.prefix(4).map(\.summary).joined(separator: ", ") + (a.count > 4 ? ", ..." : ""))
        case .bool(let b): "\(b)"
        case .float32(let v): "\(v)"
        case .float64(let v): "\(v)"
        default: integer.map { "\($0)" } ?? "?"
        }
    }
}
