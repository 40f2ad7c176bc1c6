import Testing
@testable import LlamaEngine

/// Every optimised integer kernel against the plain reference kernel, on random blocks.
@Suite struct MatMulKernelTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let type: TensorType
        let implementation: MatMul.Implementation
        /// 1 takes the single-token (generation) path, more the batched one (19: two full tiles of
        /// the AVX-512 batched kernel and a partial one).
        let tokens: Int
        var testDescription: String { "\(type.name) \(implementation.rawValue) \(tokens) token(s)" }
    }

    static let cases: [Case] = TensorType.allCases.filter(MatMul.hasIntegerKernel).flatMap { t in
        MatMul.Implementation.allCases.filter { $0 != .reference && $0.isSupported }.flatMap { i in
            [1, 6, 19].map { Case(type: t, implementation: i, tokens: $0) }
        }
    }

    @Test(arguments: cases)
    func optimisedKernelMatchesReference(_ c: Case) {
        var rng = SeededGenerator(seed: 7)
        let columns = 96, rows = 13, tokens = c.tokens
        let bytes = KernelTestInputs.weights(c.type, rows: rows, columns: columns, rng: &rng)
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)

        bytes.withUnsafeBytes { raw in
            let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: c.type, fileOffset: 0, byteCount: raw.count)
            let w = WeightMatrix(data: raw.baseAddress!, info: info)
            var expected = [Float](repeating: 0, count: tokens * rows)
            for r in 0..<rows {
                for t in 0..<tokens { expected[t * rows + r] = ReferenceKernels.dot(c.type, w.row(r), xq, token: t) }
            }
            var actual = [Float](repeating: .nan, count: tokens * rows)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            // Row ranges as the thread pool splits them (not multiples of the 4-row or 16-row tiles).
            for range in [0..<5, 5..<6, 6..<rows] {
                x.withUnsafeBufferPointer { xf in
                    actual.withUnsafeMutableBufferPointer { out in
                        MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: out.baseAddress!,
                                        outStride: rows, scratch: scratch, implementation: c.implementation)
                    }
                }
            }
            for i in expected.indices {
                #expect(abs(actual[i] - expected[i]) <= 1e-4 * max(1, abs(expected[i])), "element \(i): \(actual[i]) vs \(expected[i])")
            }
        }
    }
}

/// A token's products do not depend on the batch it comes in, so a prompt evaluated in chunks, or
/// a cached prefix, gives the same logits bit for bit: every batch of two or more tokens takes one
/// kernel whose (row, token) sums do not depend on the other tokens. One token alone takes the
/// generation kernel, which sums in llama.cpp's order: bit for bit the batch's where the batch
/// kernel is the same one, within float rounding where it is the AVX-512 batched kernel.
@Suite struct KernelBatchInvarianceTests {
    @Test(arguments: MatMul.Implementation.allCases.filter { $0.isSupported })
    func aTokensProductsDoNotDependOnItsBatch(_ implementation: MatMul.Implementation) throws {
        let file = try GGUFFile(path: TestPaths.defaultModel)
        var rng = SeededGenerator(seed: 5)
        for name in ["blk.2.ffn_gate.weight", "blk.2.ffn_down.weight", "token_embd.weight"] {
            let w = WeightMatrix(file: file, info: file.tensor(named: name)!)
            let columns = w.columns, rows = min(w.rows, 37), tokens = 11
            var x = [Float](repeating: 0, count: tokens * columns)
            for i in x.indices { x[i] = Float(Int(rng.next() % 20001) - 10000) / 5000 }
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            func products(tokens: Int, from first: Int) -> [Float] {
                let xq = QuantizedActivations(capacity: tokens * columns)
                var out = [Float](repeating: .nan, count: tokens * rows)
                x.withUnsafeBufferPointer { xf in
                    let start = xf.baseAddress! + first * columns
                    xq.quantize(start, tokens: tokens, columns: columns, stride: columns)
                    out.withUnsafeMutableBufferPointer { o in
                        MatMul.multiply(w, xq: xq, xf: start, xStride: columns, rows: 0..<rows, out: o.baseAddress!,
                                        outStride: rows, scratch: scratch, implementation: implementation)
                    }
                }
                return out
            }
            let batch = products(tokens: tokens, from: 0)
            let batchedKernel = MatMul.usesBatchedKernel(w.type, tokens: tokens, implementation)
            for t in 0..<tokens {
                let inBatch = Array(batch[t * rows..<(t + 1) * rows])
                // The same token first of a pair (last of one for the final token).
                let pairStart = min(t, tokens - 2)
                let pair = Array(products(tokens: 2, from: pairStart)[(t - pairStart) * rows..<(t - pairStart + 1) * rows])
                #expect(pair.map(\.bitPattern) == inBatch.map(\.bitPattern), "\(name) token \(t): pair \(pair.prefix(3)) vs batch \(inBatch.prefix(3))")
                let alone = products(tokens: 1, from: t)
                if batchedKernel {
                    let worst = zip(alone, inBatch).map { abs($0 - $1) / max(1, abs($1)) }.max()!
                    #expect(worst <= 1e-5, "\(name) token \(t): alone vs batch relative difference \(worst)")
                } else {
                    #expect(alone.map(\.bitPattern) == inBatch.map(\.bitPattern), "\(name) token \(t): alone \(alone.prefix(3)) vs batch \(inBatch.prefix(3))")
                }
            }
        }
    }
}

/// The same comparison on the default model's real matrices (every shape the forward pass uses).
@Suite struct RealWeightKernelTests {
    @Test func optimisedKernelsMatchReferenceOnModelMatrices() throws {
        let file = try GGUFFile(path: TestPaths.defaultModel)
        var rng = SeededGenerator(seed: 11)
        for name in ["blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.3.ffn_down.weight", "token_embd.weight"] {
            let w = WeightMatrix(file: file, info: file.tensor(named: name)!)
          for tokens in [1, 5] {
            let columns = w.columns, rows = min(w.rows, 202)
            var x = [Float](repeating: 0, count: tokens * columns)
            for i in x.indices { x[i] = Float(Int(rng.next() % 20001) - 10000) / 5000 }
            let xq = QuantizedActivations(capacity: tokens * columns)
            x.withUnsafeBufferPointer { xq.quantize($0.baseAddress!, tokens: tokens, columns: columns, stride: columns) }
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            func run(_ impl: MatMul.Implementation) -> [Float] {
                var out = [Float](repeating: .nan, count: tokens * rows)
                x.withUnsafeBufferPointer { xf in
                    out.withUnsafeMutableBufferPointer { o in
                        MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: 0..<rows, out: o.baseAddress!,
                                        outStride: rows, scratch: scratch, implementation: impl)
                    }
                }
                return out
            }
            let expected = run(.reference)
            for impl in MatMul.Implementation.allCases where impl != .reference && impl.isSupported {
                let actual = run(impl)
                let worst = zip(actual, expected).map { abs($0 - $1) / max(1, abs($1)) }.max()!
                #expect(worst <= 1e-4, "\(name) \(impl.rawValue) \(tokens) token(s): relative error \(worst)")
            }
          }
        }
    }
}
