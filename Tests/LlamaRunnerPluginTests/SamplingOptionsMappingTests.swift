import LlamaEngine
import Testing
import TandemLlama
import TandemPluginKit

/// How request options become the engine's sampling (documented in the README).
struct SamplingOptionsMappingTests {
    @Test func greedyModeAndZeroTemperatureAreTheArgmax() {
        #expect(SamplingOptions(BackendOptions(sampling: .greedy, temperature: 1, seed: 1)).isGreedy)
        #expect(SamplingOptions(BackendOptions(temperature: 0)).isGreedy)
    }

    @Test func modesFillTheirDefaults() {
        #expect(SamplingOptions(BackendOptions(seed: 3)) == SamplingOptions(temperature: 0.8, topK: 40, topP: 0.95, seed: 3))
        #expect(SamplingOptions(BackendOptions(sampling: .topK, seed: 3)) == SamplingOptions(temperature: 0.8, topK: 40, topP: 1, seed: 3))
        #expect(SamplingOptions(BackendOptions(sampling: .topP, seed: 3)) == SamplingOptions(temperature: 0.8, topK: 0, topP: 0.95, seed: 3))
        #expect(SamplingOptions(BackendOptions(sampling: .topP, temperature: 0.5, topP: 0.7, topK: 12, seed: 3))
                == SamplingOptions(temperature: 0.5, topK: 12, topP: 0.7, seed: 3))
    }

    @Test func unseededRequestsGetFreshSeedsUnlessTheConfigFixesOne() {
        let seeds = Set((0..<8).map { _ in SamplingOptions(BackendOptions()).seed })
        #expect(seeds.count > 1)
        #expect(SamplingOptions(BackendOptions(), defaultSeed: 9).seed == 9)
        #expect(SamplingOptions(BackendOptions(seed: 4), defaultSeed: 9).seed == 4)
    }
}
