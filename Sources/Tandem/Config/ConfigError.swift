/// A problem with the config file: which file, where in it (a key path such as
/// `backends.local.plugin`), what was expected and what was found.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case notFound, unreadable, malformedJSON, wrongType, unknownKey, missingKey, invalidValue
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// No config file at any searched place.
        public static let notFound = Code(.notFound)
        public static let unreadable = Code(.unreadable)
        public static let malformedJSON = Code(.malformedJSON)
        public static let wrongType = Code(.wrongType)
        /// A key the config does not define (typos are errors, not silence).
        public static let unknownKey = Code(.unknownKey)
        public static let missingKey = Code(.missingKey)
        /// Right type, wrong value (unknown mode, unknown backend id, ...).
        public static let invalidValue = Code(.invalidValue)

        public var description: String { wrapped.rawValue }
    }

    public var code: Code
    public var file: String
    /// Dotted key path; empty for the whole file.
    public var keyPath: String
    public var message: String

    public init(_ code: Code, file: String, keyPath: String, _ message: String) {
        self.code = code
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)"
    }
}
