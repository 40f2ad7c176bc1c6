/// Why a text is not a JSON document, and where: `byteOffset` is the offset of the first byte that
/// cannot continue a valid document (the text's length when it ended too early).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The text is not JSON (or not UTF-8).
        case syntax
        /// The text is a valid prefix of a JSON document but ends too early.
        case truncated
    }

    public var code: Code
    public var message: String
    public var byteOffset: Int

    public init(_ code: Code, _ message: String, byteOffset: Int) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
    }

    public var description: String { "\(code.rawValue): \(message) (byte \(byteOffset))" }
}
