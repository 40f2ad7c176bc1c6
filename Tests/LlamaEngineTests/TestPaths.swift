import Foundation

/// Where the tests find the real model, the llama.cpp reference data and generated fixtures.
enum TestPaths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let defaultModel = packageRoot + "/models/SmolLM2-135M-Instruct.Q4_1.gguf"

    /// `TANDEM_REFERENCE`, or the nearest `shared/reference/smollm2` beside the checkout or one of
    /// its parent folders.
    static let reference: String = {
        if let path = ProcessInfo.processInfo.environment["TANDEM_REFERENCE"] { return path }
        var url = URL(fileURLWithPath: packageRoot)
        while url.path != "/" {
            let candidate = url.appendingPathComponent("shared/reference/smollm2").path
            if FileManager.default.fileExists(atPath: candidate + "/greedy.jsonl") { return candidate }
            url.deleteLastPathComponent()
        }
        return packageRoot + "/shared/reference/smollm2"
    }()
}
