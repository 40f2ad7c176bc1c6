import Foundation
import LlamaFuzz
import Testing
@testable import LlamaEngine

/// The structured model fuzzer (`ModelFuzzer`) on 3,000 seeds, the first cases of a
/// `make fuzz` run (`tandem-llama fuzz --seed 1 --jobs 1` numbers them the same; a seed
/// replays with `tandem-llama fuzz --replay SEED`): every mutated model loads (and runs its
/// tokenizer, and one case in 16 a forward step) or is refused with a message naming the file.
/// The mix of outcomes shows the mutations reach the model-level checks, not only the reader.
@Suite struct ModelFuzzTests {
    @Test func mutatedModelsLoadOrAreRefusedWithAMessage() {
        let fuzzer = ModelFuzzer()
        var kinds: [String: Int] = [:]
        var loaded = 0, forwarded = 0
        var unexplained: [UInt64] = []
        for seed in UInt64(1)...3000 {
            switch fuzzer.run(seed: seed, forwardEvery: 16) {
            case .loaded(let forward):
                loaded += 1
                if forward { forwarded += 1 }
            case .refused(let kind, let message):
                kinds[kind, default: 0] += 1
                // A message names the file and says more than the code.
                if !message.hasPrefix("fuzz.gguf: ") && !kind.hasPrefix("LlamaError") || message.count < 30 { unexplained.append(seed) }
            }
        }
        print("model fuzz: 3000 cases, \(loaded) loaded (\(forwarded) forward steps); refused: "
              + kinds.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        #expect(unexplained.isEmpty, "seeds refused without a message naming the file: \(unexplained.prefix(20))")
        #expect(loaded >= 300, "only \(loaded) of 3000 cases loaded: the mutations hardly leave a valid model")
        #expect(forwarded >= 20)
        let modelLevel = ["invalidHyperparameter", "wrongTensorShape", "missingTensor", "tokenIdOutOfRange", "invalidTokenizer",
                          "unsupportedTokenizer", "overlappingTensors", "invalidName", "nameTooLong", "noTensors",
                          "unsupportedArchitecture", "duplicateKey", "misalignedTensor"]
        for code in modelLevel {
            #expect(kinds["GGUFError.\(code)", default: 0] > 0, "no case was refused with \(code)")
        }
    }
}
