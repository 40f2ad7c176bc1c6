import Foundation

/// Where the tests find the real model and the llama.cpp reference data.
enum TestPaths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let defaultModel = packageRoot + "/models/SmolLM2-135M-Instruct.Q4_1.gguf"
    static let reference = ProcessInfo.processInfo.environment["TANDEM_REFERENCE"] ?? packageRoot + "/../../shared/reference/smollm2"
}
