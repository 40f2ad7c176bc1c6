import Synchronization
import Testing
import CLlamaKernels
@testable import LlamaEngine

/// Weights packed into 16-row panels (`llama_gemm.h`) give the same products, bit for bit, as the
/// file's rows through the same implementation: the one-token kernel as lk_matmul (32-value
/// types, llama.cpp's order) or lk_gemm (K-quants), the batched kernel as lk_gemm. Random blocks,
/// row ranges that cut panels, one token and a batch over two tiles and a part.
@Suite(.enabled(if: MatMul.Implementation.avx512vnni.isSupported, "packing needs AVX-512 VNNI"))
struct PackedKernelTests {
    static let types: [TensorType] = [.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .iq4_nl, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K]

    @Test(arguments: types, [1, 19])
    func packedWeightsGiveTheRowsResultsBitForBit(_ type: TensorType, tokens: Int) {
        var rng = SeededGenerator(seed: 31)
        let columns = type.blockSize == 256 ? 512 : 96, rows = 37
        let bytes = KernelTestInputs.weights(type, rows: rows, columns: columns, rng: &rng)
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)

        bytes.withUnsafeBytes { raw in
            let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type, fileOffset: 0, byteCount: raw.count)
            let rowsMatrix = WeightMatrix(data: raw.baseAddress!, info: info)
            let store = WeightMatrix.PackedWeights()
            let packedMatrix = store.pack(rowsMatrix, types: Set(Self.types), implementation: .avx512vnni)
            #expect(packedMatrix.packed != nil)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            func product(_ w: WeightMatrix) -> [Float] {
                var out = [Float](repeating: .nan, count: tokens * rows)
                for range in [0..<5, 5..<21, 21..<rows] {
                    x.withUnsafeBufferPointer { xf in
                        out.withUnsafeMutableBufferPointer { o in
                            MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: o.baseAddress!,
                                            outStride: rows, scratch: scratch, implementation: .avx512vnni)
                        }
                    }
                }
                return out
            }
            let expected = product(rowsMatrix), actual = product(packedMatrix)
            #expect(!expected.contains { $0.isNaN })
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern))
        }
    }

    /// A product's activation tiles are rearranged once (`QuantizedActivations.batchedTiles`) and
    /// read by every row chunk; they follow the activations and the weights' layout: a product on
    /// another layout, or after the next quantisation, never reads the tiles made before.
    @Test func activationTilesFollowTheQuantisationAndTheLayout() throws {
        var rng = SeededGenerator(seed: 7)
        let columns = 96, rows = 37, tokens = 19
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)
        let (second, _) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)
        let weights = [TensorType.q8_0, .q4_0].map { KernelTestInputs.weights($0, rows: rows, columns: columns, rng: &rng) }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
        defer { scratch.deallocate() }
        let store = WeightMatrix.PackedWeights()
        func product(_ type: TensorType, _ bytes: [UInt8], _ input: [Float], packed: Bool) -> [Float] {
            bytes.withUnsafeBytes { raw in
                let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type, fileOffset: 0, byteCount: raw.count)
                let w = packed ? store.pack(WeightMatrix(data: raw.baseAddress!, info: info), types: [type], implementation: .avx512vnni)
                    : WeightMatrix(data: raw.baseAddress!, info: info)
                var out = [Float](repeating: .nan, count: tokens * rows)
                input.withUnsafeBufferPointer { xf in
                    out.withUnsafeMutableBufferPointer { o in
                        for range in [0..<16, 16..<rows] {
                            MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: o.baseAddress!,
                                            outStride: rows, scratch: scratch, implementation: .avx512vnni)
                        }
                    }
                }
                return out
            }
        }
        for (type, bytes) in zip([TensorType.q8_0, .q4_0, .q8_0], [weights[0], weights[1], weights[0]]) {
            #expect(product(type, bytes, x, packed: true).map(\.bitPattern) == product(type, bytes, x, packed: false).map(\.bitPattern),
                    "\(type.name) after the other layout's product")
        }
        let before = product(.q8_0, weights[0], x, packed: true)
        second.withUnsafeBufferPointer { xq.quantize($0.baseAddress!, tokens: tokens, columns: columns, stride: columns) }
        let fresh = product(.q8_0, weights[0], second, packed: true)
        #expect(fresh.map(\.bitPattern) == product(.q8_0, weights[0], second, packed: false).map(\.bitPattern))
        #expect(fresh != before)

        // The C entry refuses tiles made for another layout (Q4_0's offset is 8, Q8_0's 128).
        let q4Tiles = try #require(xq.batchedTiles(for: Int32(TensorType.q4_0.rawValue)))
        var activations = lk_activations(qs: xq.qs, scales: xq.scales, tokens: Int32(tokens), columns: Int32(columns))
        let packedBytes = lk_packed_bytes(Int32(TensorType.q8_0.rawValue), Int32(rows), Int32(columns))
        var packed = [UInt8](repeating: 0, count: packedBytes)
        var out = [Float](repeating: 0, count: tokens * rows)
        let rc = weights[0].withUnsafeBytes { raw in
            packed.withUnsafeMutableBytes { p in
                lk_pack(Int32(TensorType.q8_0.rawValue), raw.baseAddress!.assumingMemoryBound(to: UInt8.self), columns / 32 * 34, Int32(rows),
                        Int32(columns), p.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        #expect(rc == 0)
        let refused = packed.withUnsafeBytes { p in
            lk_gemm_packed(Int32(TensorType.q8_0.rawValue), p.baseAddress!.assumingMemoryBound(to: UInt8.self), 0, Int32(rows),
                           &activations, q4Tiles, &out, rows, scratch, 4 * MatMul.scratchLength(columns: columns, tokens: tokens))
        }
        #expect(refused == -1)
    }

    /// Two products of different layouts (Q4_K and Q6_K, as a Q4_K_M file's Q and V) share one
    /// quantisation on two threads at once: each reads tiles of its own layout, and both give the
    /// rows' results bit for bit.
    @Test func productsOfTwoLayoutsShareTheActivationsAcrossThreads() {
        var rng = SeededGenerator(seed: 11)
        let columns = 512, rows = 320, tokens = 21
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)
        let types: [TensorType] = [.q4_K, .q6_K]
        let weights = types.map { KernelTestInputs.weights($0, rows: rows, columns: columns, rng: &rng) }
        let store = WeightMatrix.PackedWeights()
        let pool = ThreadPool(threads: 2)
        let scratchLength = MatMul.scratchLength(columns: columns, tokens: tokens)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * scratchLength)
        defer { scratch.deallocate() }
        weights[0].withUnsafeBytes { firstRaw in
            weights[1].withUnsafeBytes { secondRaw in
                let matrices = zip(types, [firstRaw, secondRaw]).map { type, raw in
                    WeightMatrix(data: raw.baseAddress!, info: GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type,
                                                                              fileOffset: 0, byteCount: raw.count))
                }
                let packed = matrices.map { store.pack($0, types: Set(types), implementation: .avx512vnni) }
                for _ in 0..<20 {
                    var (first, second) = ([Float](repeating: .nan, count: tokens * rows), [Float](repeating: .nan, count: tokens * rows))
                    var expected = [first, second]
                    x.withUnsafeBufferPointer { xf in   // not read by the integer kernels
                        first.withUnsafeMutableBufferPointer { o0 in
                            second.withUnsafeMutableBufferPointer { o1 in
                                let outs = [o0.baseAddress!, o1.baseAddress!]
                                // Thread s multiplies matrix s, a panel per call, while the other runs the other
                                // (both start together, so a parked worker's wake-up cannot keep them apart).
                                let arrived = Atomic<Int>(0)
                                pool.run { s in
                                    arrived.add(1, ordering: .acquiringAndReleasing)
                                    while arrived.load(ordering: .acquiring) < 2 {}
                                    for row in stride(from: 0, to: rows, by: 16) {
                                        MatMul.multiply(packed[s], xq: xq, xf: xf.baseAddress!, xStride: columns, rows: row..<row + 16,
                                                        out: outs[s], outStride: rows, scratch: scratch + s * scratchLength,
                                                        implementation: .avx512vnni)
                                    }
                                }
                            }
                        }
                        for s in 0..<2 {
                            expected[s].withUnsafeMutableBufferPointer { o in
                                MatMul.multiply(matrices[s], xq: xq, xf: xf.baseAddress!, xStride: columns, rows: 0..<rows,
                                                out: o.baseAddress!, outStride: rows, scratch: scratch, implementation: .avx512vnni)
                            }
                        }
                    }
                    for (s, output) in [first, second].enumerated() {
                        let differing = zip(output, expected[s]).filter { $0.bitPattern != $1.bitPattern }.count
                        #expect(differing == 0, "\(types[s].name): \(differing) of \(output.count) products differ")
                    }
                    x.withUnsafeBufferPointer { xq.quantize($0.baseAddress!, tokens: tokens, columns: columns, stride: columns) }
                }
            }
        }
    }
}
