import Testing
@testable import TandemLlama
import TandemPluginKit

/// The sampler's fast path against its plain reference, and the plan it follows.
struct SamplerTests {
    /// Logits shaped like a model's: a few strong candidates over a long tail.
    static func logits(seed: UInt64, count: Int = 4096) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let u = Float(generator.next() >> 40) / Float(1 << 24)
            return u < 0.01 ? 10 + u * 500 : u * 8
        }
    }

    @Test(arguments: [
        SamplingPlan(BackendOptions(sampling: .topP, temperature: 0.8, topP: 0.95, seed: 1)),
        SamplingPlan(BackendOptions(sampling: .topP, temperature: 1.5, topP: 0.99, seed: 1)),
        SamplingPlan(BackendOptions(sampling: .topK, temperature: 0.7, topK: 40, seed: 1)),
        SamplingPlan(BackendOptions(sampling: .topK, temperature: 1.0, topP: 0.5, topK: 5, seed: 1)),
        SamplingPlan(BackendOptions(sampling: .topK, temperature: 1.0, topK: 1000, seed: 1)),
    ])
    func fastPathChoosesWhatTheReferenceChooses(plan: SamplingPlan) {
        for seed in 0..<40 as Range<UInt64> {
            var values = Self.logits(seed: seed)
            // Some masked tokens, as guided decoding leaves them.
            for i in stride(from: Int(seed), to: values.count, by: 7) { values[i] = -.infinity }
            for uniform in [0.0, 0.13, 0.5, 0.87, 0.999_999] {
                values.withUnsafeBufferPointer { logits in
                    let fast = TokenSampler.choose(logits, plan: plan, uniform: uniform, window: TokenSampler.candidateWindow)
                    let reference = TokenSampler.referenceChoose(logits, plan: plan, uniform: uniform)
                    #expect(fast == reference, "seed \(seed), draw \(uniform)")
                    #expect(logits[Int(fast)] > -.infinity)
                }
            }
        }
    }

    /// A small window forces the fallback to the full sort; the choice stays the same.
    @Test func narrowWindowFallsBackToTheReference() {
        let plan = SamplingPlan(BackendOptions(temperature: 2, topP: 0.99, seed: 3))
        let values = Self.logits(seed: 9)
        values.withUnsafeBufferPointer { logits in
            for uniform in [0.1, 0.6, 0.95] {
                #expect(TokenSampler.choose(logits, plan: plan, uniform: uniform, window: 8)
                        == TokenSampler.referenceChoose(logits, plan: plan, uniform: uniform))
            }
        }
    }

    @Test func greedyAndTemperatureZeroTakeTheArgmax() {
        var values = Self.logits(seed: 5)
        values[1234] = 1000
        for options in [BackendOptions(sampling: .greedy, temperature: 1), BackendOptions(temperature: 0)] {
            var sampler = TokenSampler(plan: SamplingPlan(options))
            #expect(values.withUnsafeBufferPointer { sampler.choose($0) } == 1234)
        }
    }

    @Test func planDefaults() {
        let plain = SamplingPlan(BackendOptions(seed: 1))
        #expect(!plain.greedy && plain.temperature == 0.8 && plain.topK == nil && plain.topP == 0.95)
        let topK = SamplingPlan(BackendOptions(sampling: .topK, seed: 1))
        #expect(topK.topK == 40 && topK.topP == nil)
    }

    /// Same seed, same draws; the sampler's choices follow the plan's seed.
    @Test func seedFixesTheDraws() {
        let values = Self.logits(seed: 11)
        func draws(_ seed: UInt64) -> [Int32] {
            var sampler = TokenSampler(plan: SamplingPlan(BackendOptions(temperature: 1.2, seed: seed)))
            return (0..<20).map { _ in values.withUnsafeBufferPointer { sampler.choose($0) } }
        }
        #expect(draws(4) == draws(4))
        #expect(draws(4) != draws(5))
    }
}
