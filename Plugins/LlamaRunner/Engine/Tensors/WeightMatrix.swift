import CLlamaKernels

/// A 2-D weight tensor inside the mapped file: `rows` rows of `columns` elements, each row
/// `rowBytes` bytes of `type` blocks. Multiplying by it computes one output per row.
public struct WeightMatrix: @unchecked Sendable {
    public let name: String
    public let type: TensorType
    public let data: UnsafeRawPointer
    public let rows: Int
    public let columns: Int
    /// The same weights packed into the AVX-512 VNNI kernels' 16-row panels (`llama_gemm.h`), when
    /// `PackedWeights` made them; `data` stays the one source for rows (embedding look-ups).
    public let packed: UnsafeRawPointer?
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
        packed = nil
    }

    /// Rows `rows` of `w` as a matrix of their own (a fused matrix's parts: Phi-3's Q, K and V in
    /// `attn_qkv`), sharing `w`'s bytes; packed separately if at all.
    init(_ w: WeightMatrix, rows range: Range<Int>, name: String) {
        precondition(range.lowerBound >= 0 && range.upperBound <= w.rows, "rows \(range) outside \(w.name)'s \(w.rows)")
        self.name = name
        type = w.type
        data = w.data + range.lowerBound * w.rowBytes
        rows = range.count
        columns = w.columns
        packed = nil
    }

    private init(_ w: WeightMatrix, packed: UnsafeRawPointer) {
        name = w.name
        type = w.type
        data = w.data
        rows = w.rows
        columns = w.columns
        self.packed = packed
    }

    public func row(_ r: Int) -> UnsafeRawPointer { data + r * rowBytes }

    /// The packed copies of a model's matrices, made once at load and freed with the model.
    final class PackedWeights: @unchecked Sendable {
        private var buffers: [UnsafeMutableRawPointer] = []

        /// The types a model's matrices are packed in, where the packed one-token product measured
        /// faster (Engine README, "Packed panels"): the K-quants, whose one-token product otherwise
        /// rearranges 16 rows per call, and Q4_0, Q5_0 and Q5_1. Q4_1 and Q8_0 stay on the row
        /// kernels, which keep up with them there.
        static let modelTypes: Set<TensorType> = [.q4_0, .q5_0, .q5_1, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K]

        /// `w` with a packed copy when its type is in `types`, the kernels pack it on this CPU and
        /// the product will use them (`MatMul.implementation` is AVX-512 VNNI); otherwise `w` itself.
        func pack(_ w: WeightMatrix, types: Set<TensorType> = modelTypes,
                  implementation: MatMul.Implementation = MatMul.implementation) -> WeightMatrix {
            guard implementation == .avx512vnni, types.contains(w.type), lk_packed_supports(Int32(w.type.rawValue)) != 0 else { return w }
            let bytes = lk_packed_bytes(Int32(w.type.rawValue), Int32(w.rows), Int32(w.columns))
            guard bytes > 0 else { return w }
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            guard lk_pack(Int32(w.type.rawValue), w.data.assumingMemoryBound(to: UInt8.self), w.rowBytes, Int32(w.rows),
                          Int32(w.columns), buffer.assumingMemoryBound(to: UInt8.self)) == 0 else {
                buffer.deallocate()
                return w
            }
            buffers.append(buffer)
            return WeightMatrix(w, packed: buffer)
        }

        deinit { for b in buffers { b.deallocate() } }
    }
}
