/// A 2-D weight tensor inside the mapped file: `rows` rows of `columns` elements, each row
/// `rowBytes` bytes of `type` blocks. Multiplying by it computes one output per row.
public struct WeightMatrix: @unchecked Sendable {
    public let name: String
    public let type: TensorType
    public let data: UnsafeRawPointer
    public let rows: Int
    public let columns: Int
    public var rowBytes: Int { columns / type.blockSize * type.blockBytes }

    init(file: GGUFFile, info: GGUFTensorInfo) {
        self.init(data: file.data(of: info), info: info)
    }

    init(data: UnsafeRawPointer, info: GGUFTensorInfo) {
        name = info.name
        type = info.type
        self.data = data
        columns = info.dimensions[0]
        rows = info.elementCount / info.dimensions[0]
    }

    public func row(_ r: Int) -> UnsafeRawPointer { data + r * rowBytes }
}
