import Foundation
import Testing
@testable import LlamaEngine
import LlamaFuzz

/// Bad model files give a clear error naming the file and the problem, never a crash.
@Suite struct GGUFErrorTests {
    let dir = SyntheticGGUF.temporaryDirectory()

    func code(of bytes: [UInt8], _ name: String = "model.gguf") -> GGUFError.Code? {
        let path = SyntheticGGUF.write(bytes, in: dir, name: name)
        do {
            _ = try LlamaModel(path: path, threads: 1)
            return nil
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            return error.code
        }
    }

    @Test func theTinyModelLoads() throws {
        let path = SyntheticGGUF.write(SyntheticGGUF.tinyLlama().encoded(), in: dir)
        let model = try LlamaModel(path: path, threads: 1)
        #expect(model.hyperparameters.layers == 1)
        #expect(model.vocabularySize == 8)
        #expect(model.modelVersion == "model-q4_1")
        #expect(model.endOfGenerationTokens == [0, 1])
    }

    @Test func missingFileDirectoryAndEmptyFile() {
        #expect(throws: GGUFError.self) { try GGUFFile(path: dir + "/absent.gguf") }
        #expect((try? GGUFFile(path: dir + "/absent.gguf")) == nil)
        do { _ = try GGUFFile(path: dir + "/absent.gguf") } catch { #expect(error.code == .missingFile) }
        do { _ = try GGUFFile(path: dir) } catch { #expect(error.code == .isDirectory) }
        #expect(code(of: [], "empty.gguf") == .emptyFile)
    }

    @Test func headerProblems() {
        let good = SyntheticGGUF.tinyLlama().encoded()
        var wrongMagic = good
        wrongMagic[0] = UInt8(ascii: "X")
        #expect(code(of: wrongMagic) == .wrongMagic)
        #expect(code(of: SyntheticGGUF.tinyLlama().encoded(version: 1)) == .unsupportedVersion)
        #expect(code(of: SyntheticGGUF.tinyLlama().encoded(version: 4)) == .unsupportedVersion)
        #expect(code(of: Array(good.prefix(100))) == .truncatedHeader)
        #expect(code(of: Array(good.prefix(3))) == .truncatedHeader)
        // Truncated inside the tensor data.
        #expect(code(of: Array(good.dropLast(40))) == .truncatedTensorData)
        // An absurd metadata count.
        var absurd = good
        for i in 16..<24 { absurd[i] = 0xFF }
        #expect(code(of: absurd) == .absurdCount)
    }

    @Test func tensorTableProblems() {
        var g = SyntheticGGUF.tinyLlama()
        g.tensors[2].dims = [32, 1 << 40]
        #expect(code(of: g.encoded()) == .absurdDimensions)

        g = SyntheticGGUF.tinyLlama()
        var bytes = g.encoded()
        // Point the last tensor's offset far past the end: find it by its name in the table.
        let name = Array("output_norm.weight".utf8)
        let at = (0...(bytes.count - name.count)).first { bytes[$0..<$0 + name.count].elementsEqual(name) }! + name.count
        // name, n_dims (4), dim (8), type (4), then the offset (8).
        for i in 0..<8 { bytes[at + 16 + i] = i == 6 ? 0x01 : 0 }
        #expect(code(of: bytes) == .offsetPastEnd)
    }

    @Test func unsupportedTypeAndArchitectureAreNamed() throws {
        var g = SyntheticGGUF.tinyLlama()
        var bytes = g.encoded()
        let name = Array("blk.0.attn_q.weight".utf8)
        let at = (0...(bytes.count - name.count)).first { bytes[$0..<$0 + name.count].elementsEqual(name) }! + name.count
        bytes[at + 4 + 16] = 16  // type code after n_dims and two dims: IQ2_XXS
        let path = SyntheticGGUF.write(bytes, in: dir, name: "iq2xxs.gguf")
        do {
            _ = try GGUFFile(path: path)
            Issue.record("loaded an IQ2_XXS tensor")
        } catch {
            #expect(error.code == .unsupportedTensorType)
            #expect(error.detail.contains("IQ2_XXS") && error.detail.contains("blk.0.attn_q.weight"))
        }

        g.metadata[0] = ("general.architecture", .string("mamba"))
        let archPath = SyntheticGGUF.write(g.encoded(), in: dir, name: "mamba.gguf")
        do {
            _ = try LlamaModel(path: archPath, threads: 1)
            Issue.record("loaded an unsupported architecture")
        } catch {
            #expect(error.code == .unsupportedArchitecture)
            #expect(error.detail.contains("mamba"))
        }
    }

    /// The 256-value superblock types (down projection of 256-value rows): the file loads and
    /// runs; a file cut inside the tensor's last block, a tensor declaring one row (a block per
    /// row) more or a row twice as long as its data, and rows that are not whole superblocks are
    /// each refused with an error naming the tensor; one row fewer is the wrong shape.
    @Test(arguments: TensorType.allCases.filter { $0.blockSize == 256 })
    func kQuantTensorsWithTruncatedOrMiscountedBlocks(_ type: TensorType) throws {
        let name = "blk.0.ffn_down.weight"
        let base = SyntheticGGUF.tinyLlama(feedForwardDown: type)
        let good = base.encoded()
        let path = SyntheticGGUF.write(good, in: dir, name: "k.gguf")
        let file = try GGUFFile(path: path)
        let down = try #require(file.tensors.first { $0.name == name })
        #expect(down.type == type && down.byteCount == 32 * type.blockBytes)
        let model = try LlamaModel(file: file, threads: 1)
        try LlamaSession(model: model, contextLength: 8).evaluate([0, 1]) { _, _ in }

        func refusal(_ bytes: [UInt8]) -> GGUFError? {
            do {
                _ = try LlamaModel(path: SyntheticGGUF.write(bytes, in: dir, name: "k-bad.gguf"), threads: 1)
                return nil
            } catch { return error }
        }
        // Cut half a block before the tensor's end.
        let cut = refusal(Array(good.prefix(down.fileOffset + down.byteCount - type.blockBytes / 2)))
        #expect(cut?.code == .truncatedTensorData)
        #expect(cut?.detail.contains(name) == true)
        for dims in [[256, 33], [512, 32]] {
            var g = base
            g.tensors[g.tensors.firstIndex { $0.name == name }!].dims = dims
            let error = refusal(g.encoded())
            #expect(error?.code == .overlappingTensors || error?.code == .truncatedTensorData, "\(dims): \(String(describing: error))")
            #expect(error?.detail.contains(name) == true)
        }
        var partial = base
        partial.tensors[partial.tensors.firstIndex { $0.name == name }!].dims = [128, 64]
        let notWhole = refusal(partial.encoded())
        #expect(notWhole?.code == .absurdDimensions)
        #expect(notWhole?.detail.contains(name) == true && notWhole?.detail.contains("\(type.name) block size 256") == true)
        var fewer = base
        fewer.tensors[fewer.tensors.firstIndex { $0.name == name }!].dims = [256, 31]
        let short = refusal(fewer.encoded())
        #expect(short?.code == .wrongTensorShape)
        #expect(short?.detail.contains(name) == true)
    }

    @Test func tokenIdsOutOfRangeInMetadata() throws {
        var g = SyntheticGGUF.tinyLlama()
        g.metadata[g.metadata.firstIndex { $0.0 == "tokenizer.ggml.eos_token_id" }!] = ("tokenizer.ggml.eos_token_id", .u32(99))
        let path = SyntheticGGUF.write(g.encoded(), in: dir, name: "eos.gguf")
        let file = try GGUFFile(path: path)
        do {
            _ = try TokenizerVocabulary(gguf: file)
            Issue.record("accepted eos id 99 in an 8-token vocabulary")
        } catch {
            #expect(error.code == .tokenIdOutOfRange)
        }
        do {
            _ = try LlamaModel(file: file, threads: 1)
            Issue.record("model accepted eos id 99")
        } catch {
            #expect(error.code == .tokenIdOutOfRange)
        }
    }
}
