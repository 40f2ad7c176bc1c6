/// A model file that cannot be used, with the file and the problem named.
public struct GGUFError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case missingFile, isDirectory, unreadable, emptyFile, wrongMagic, unsupportedVersion
        case truncatedHeader, truncatedTensorData, offsetPastEnd, absurdCount, absurdDimensions
        case invalidString, invalidValueType, duplicateKey, duplicateTensor, misalignedTensor
        case unsupportedTensorType, unsupportedArchitecture, missingMetadata, wrongMetadataType
        case tokenIdOutOfRange, missingTensor, wrongTensorShape
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
