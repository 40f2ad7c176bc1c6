/// A model file that cannot be used, with the file and the problem named.
public struct GGUFError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case missingFile, isDirectory, unreadable, emptyFile, wrongMagic, unsupportedVersion
        case truncatedHeader, truncatedTensorData, offsetPastEnd, absurdCount, absurdDimensions
        case invalidString, invalidValueType, duplicateKey, duplicateTensor, misalignedTensor
        case unsupportedTensorType, unsupportedArchitecture, missingMetadata, wrongMetadataType
        case tokenIdOutOfRange, missingTensor, wrongTensorShape
        /// An empty metadata key, or a key or tensor name with NUL or another control character.
        case invalidName
        /// A key or tensor name longer than the format allows.
        case nameTooLong
        /// Two tensors whose bytes share part of the file.
        case overlappingTensors
        /// A header that lists no tensors (a model needs its weights).
        case noTensors
        /// A hyperparameter that is zero, out of its range, or does not divide as it must.
        case invalidHyperparameter
        /// `tokenizer.ggml.model` or `tokenizer.ggml.pre` names a tokenizer this engine lacks.
        case unsupportedTokenizer
        /// Tokenizer metadata that contradicts itself (array lengths, merges, ...).
        case invalidTokenizer
    }

    public let code: Code
    public let path: String
    public let detail: String

    public init(_ code: Code, path: String, _ detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(code.rawValue): \(detail)" }
}
