/// One entry of the file's tensor table, already checked against the file size.
public struct GGUFTensorInfo: Sendable {
    public let name: String
    /// Dimensions, innermost (contiguous) first, as ggml orders them.
    public let dimensions: [Int]
    public let type: TensorType
    /// Byte offset from the start of the file (the data section start already added).
    public let fileOffset: Int
    public let byteCount: Int

    public var elementCount: Int { dimensions.reduce(1, *) }
}
