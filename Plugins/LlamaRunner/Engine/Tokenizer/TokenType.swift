/// The GGUF `tokenizer.ggml.token_type` values. A vocabulary without the array treats every
/// token as normal, as llama.cpp does.
enum TokenType: Int32, Sendable {
    case undefined = 0
    case normal = 1
    case unknown = 2
    case control = 3
    case userDefined = 4
    case unused = 5
    case byte = 6

    init(gguf value: Int32) {
        self = TokenType(rawValue: value) ?? .undefined
    }
}
