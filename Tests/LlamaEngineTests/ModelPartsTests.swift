import Foundation
import Testing
@testable import LlamaEngine

@Suite struct ModelPartsTests {
    @Test func modelVersionRule() {
        #expect(ModelVersion.make(path: "/m/SmolLM2-135M-Instruct.Q4_1.gguf", fileType: 3) == "smollm2-135m-instruct-q4_1")
        #expect(ModelVersion.make(path: "gemma-3-270m-it-Q4_K_M.gguf", fileType: 15) == "gemma-3-270m-it-q4_k_m")
        #expect(ModelVersion.make(path: "My Model.gguf", fileType: 7) == "my-model-q8_0")
        #expect(ModelVersion.make(path: "/m/smollm2-135m.IQ4_NL.gguf", fileType: 25) == "smollm2-135m-iq4_nl")
        #expect(ModelVersion.make(path: "x.GGUF", fileType: nil) == "x-unknown-type")
    }

    @Test(arguments: [LlamaHyperparameters.RopeStyle.adjacentPairs, .neox])
    func ropeRotatesTheRightPairs(style: LlamaHyperparameters.RopeStyle) {
        let rope = RotaryEmbedding(style: style, dimensions: 8, base: 10000)
        var cos = [Float](repeating: 0, count: 4), sin = [Float](repeating: 0, count: 4)
        rope.angles(start: 3, count: 1, cos: &cos, sin: &sin)
        #expect(abs(cos[0] - Foundation.cos(3)) < 1e-6 && abs(sin[1] - Foundation.sin(3 * Foundation.pow(10000, -0.25))) < 1e-5)
        // A unit vector on the first dimension rotates within its pair only.
        var v: [Float] = [1, 0, 0, 0, 0, 0, 0, 0]
        rope.apply(&v, heads: 1, headDim: 8, cos: cos, sin: sin)
        let partner = style == .adjacentPairs ? 1 : 4
        #expect(abs(v[0] - cos[0]) < 1e-6 && abs(v[partner] - sin[0]) < 1e-6)
        #expect(v.enumerated().allSatisfy { $0.offset == 0 || $0.offset == partner || $0.element == 0 })
    }

    @Test func threadPoolRunsEveryIndexOncePerJob() {
        let pool = ThreadPool(threads: 3)
        var hits = [Int](repeating: 0, count: 3)
        hits.withUnsafeMutableBufferPointer { h in
            for _ in 0..<2000 { pool.run { i in h[i] += 1 } }
        }
        #expect(hits == [2000, 2000, 2000])
        #expect(ThreadPool.share(of: 10, part: 0, parts: 3, granule: 4) == 0..<4)
        #expect(ThreadPool.share(of: 10, part: 2, parts: 3, granule: 4) == 8..<10)
    }
}
