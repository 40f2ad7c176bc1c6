/// Why a vocabulary could not become a tokenizer, or why ids could not be decoded.
public struct TokenizerError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// `tokenizer.ggml.model` names a tokenizer this engine does not implement.
        case unsupportedModel
        /// `tokenizer.ggml.pre` names a pre-tokenizer this engine does not implement.
        case unsupportedPreTokenizer
        /// The vocabulary contradicts itself or lacks something the tokenizer needs.
        case malformedVocabulary
        /// A token id outside the vocabulary.
        case tokenOutOfRange
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "tokenizer error (\(code.rawValue)): \(message)" }
}
