import Testing
@testable import LlamaEngine
import LlamaFuzz

/// Hostile files for every quantised type: the reader refuses truncated blocks and rows that are
/// not whole blocks, naming the tensor; a valid tensor of each 32-value type runs in a model.
@Suite struct QuantizedTensorFileTests {
    static let quantised = TensorType.allCases.filter { $0.blockSize > 1 }
    let dir = SyntheticGGUF.temporaryDirectory()

    /// A file whose only tensors are `w` (three rows of two blocks of `type`) and a small F32 after it.
    func file(_ type: TensorType, columns: Int? = nil) -> SyntheticGGUF {
        var g = SyntheticGGUF()
        var rng = SeededGenerator(seed: UInt64(type.rawValue))
        let cols = columns ?? 2 * type.blockSize
        g.tensors = [
            tensor("w", dims: [cols, 3], type: type, data: SyntheticGGUF.weights(type, rows: 3, cols: 2 * type.blockSize, &rng)),
            tensor("after", dims: [4], type: .f32, data: [UInt8](repeating: 0, count: 16)),
        ]
        return g
    }

    func tensor(_ name: String, dims: [Int], type: TensorType, data: [UInt8]) -> SyntheticGGUF.Tensor {
        var t = SyntheticGGUF.tinyLlama().tensors[0]
        (t.name, t.dims, t.type, t.data) = (name, dims, type, data)
        return t
    }

    func refusal(_ bytes: [UInt8], _ name: String) -> GGUFError? {
        do {
            _ = try GGUFFile(path: SyntheticGGUF.write(bytes, in: dir, name: name))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: quantised)
    func truncatedBlocksAreRefusedByName(_ type: TensorType) throws {
        let g = file(type)
        #expect(refusal(g.encoded(), "valid-\(type.name).gguf") == nil)
        var alone = g
        alone.tensors.removeLast()
        let whole = alone.encoded()
        let dataOffset = try GGUFFile(path: SyntheticGGUF.write(whole, in: dir, name: "alone-\(type.name).gguf")).dataOffset
        let bytes = Array(whole.prefix(dataOffset + 3 * 2 * type.blockBytes - 1))  // w's last block one byte short
        let e = try #require(refusal(bytes, "short-\(type.name).gguf"), "\(type.name): a truncated block loaded")
        #expect(e.code == .truncatedTensorData && e.detail.contains("tensor w"), "\(type.name): \(e)")
    }

    @Test(arguments: quantised)
    func rowsThatAreNotWholeBlocksAreRefusedByName(_ type: TensorType) throws {
        let bytes = file(type, columns: type.blockSize + type.blockSize / 2).encoded()
        let e = try #require(refusal(bytes, "partial-\(type.name).gguf"), "\(type.name): a partial block loaded")
        #expect(e.code == .absurdDimensions && e.detail.contains("tensor w") && e.detail.contains(type.name), "\(type.name): \(e)")
    }

    /// w's rows claim more blocks than lie before the next tensor: the two would share bytes.
    @Test(arguments: quantised)
    func tooManyBlocksForTheSpaceAreRefused(_ type: TensorType) throws {
        var g = file(type)
        g.overrides.tensorOffset[1] = UInt64((type.blockBytes * 2 * 3 - 1) / g.alignment * g.alignment)
        let e = try #require(refusal(g.encoded(), "overlap-\(type.name).gguf"), "\(type.name): overlapping tensors loaded")
        #expect(e.detail.contains("w") && e.detail.contains("after"), "\(type.name): \(e)")
    }

    /// A tiny model with its attention query matrix in each 32-value type loads and runs a token
    /// through the same kernels as a real file, with finite logits.
    @Test(arguments: quantised.filter { $0.blockSize == SyntheticGGUF.embedding })
    func aModelWithTheTypeRuns(_ type: TensorType) throws {
        var g = SyntheticGGUF.tinyLlama()
        var rng = SeededGenerator(seed: 3)
        let at = g.tensors.firstIndex { $0.name == "blk.0.attn_q.weight" }!
        let d = SyntheticGGUF.embedding
        g.tensors[at].type = type
        g.tensors[at].data = SyntheticGGUF.weights(type, rows: d, cols: d, &rng)
        let model = try LlamaModel(path: SyntheticGGUF.write(g.encoded(), in: dir, name: "tiny-\(type.name).gguf"), threads: 1)
        let session = LlamaSession(model: model, contextLength: 8)
        var finite = false
        try session.evaluate([2, 3]) { _, logits in finite = logits.allSatisfy(\.isFinite) }
        #expect(finite, "\(type.name): non-finite logits")
    }
}
