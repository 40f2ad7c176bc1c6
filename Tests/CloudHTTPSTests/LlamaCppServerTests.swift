@testable import CloudHTTPSCore
import Foundation
import PluginFixtures
import TandemBridge
import Testing

/// The OpenAI dialect against a real OpenAI-compatible server: llama.cpp's, from the PyPI package
/// `llama-cpp-python[server]`, serving the default model. Optional: it runs when
/// TANDEM_LLAMA_CPP_PYTHON names a Python that has the package (it is built locally, never
/// installed by the Makefile) and the default model file is present.
@Suite(.serialized, .enabled(if: LlamaCppServer.isConfigured, "set TANDEM_LLAMA_CPP_PYTHON to a python with llama-cpp-python[server]"))
struct LlamaCppServerTests {
    @Test(arguments: [true, false])
    func answersThroughTheOpenAIDialect(stream: Bool) throws {
        let server = try LlamaCppServer.shared.get()
        let model = try ModelFactory.open([
            "dialect": "openai", "model": "smollm2", "base_url": "http://127.0.0.1:\(server.port)/v1",
            "api_key_required": "false", "max_tokens_field": "max_tokens", "stream": stream ? "true" : "false",
        ])
        #expect(model.availability(locale: nil) == .available)
        let run = GenerationRun.run(model, .prompt("What is the capital of France? Answer in one word.", options: BackendOptions(temperature: 0, maxTokens: 24)))
        let result = try run.result.get()
        #expect(!run.recorder.text.isEmpty)
        #expect([FinishReason.stop, .maxTokens].contains(result.finish))
        #expect(!result.modelVersion.isEmpty)
        if stream {
            #expect(run.recorder.events.count > 1)  // streamed piece by piece (this server sends no usage chunk)
        } else {
            #expect(result.usage.promptTokens > 0)
        }
        print("llama.cpp server (stream: \(stream)): \(result.modelVersion), \(result.finish): \(run.recorder.text)")
    }

    @Test func unknownServerFieldsAndModelListAreTolerated() throws {
        let server = try LlamaCppServer.shared.get()
        let model = try ModelFactory.open([
            "dialect": "openai", "model": "smollm2", "base_url": "http://127.0.0.1:\(server.port)/v1", "api_key_required": "false",
        ])
        #expect(try !model.listModels().isEmpty)
    }
}

/// One llama.cpp server for the suite, on a free loopback port; it ends with the test process.
final class LlamaCppServer: @unchecked Sendable {
    static var python: String? { ProcessInfo.processInfo.environment["TANDEM_LLAMA_CPP_PYTHON"] }
    static var modelPath: String {
        PackagePaths.models + "/SmolLM2-135M-Instruct.Q4_1.gguf"
    }
    static var isConfigured: Bool { python != nil && FileManager.default.fileExists(atPath: modelPath) }

    let port: Int
    /// Its stdin is held open for the life of the test process; its end stops the server.
    let process: TestProcess

    static let shared: Result<LlamaCppServer, LlamaError> = {
        do { return .success(try LlamaCppServer()) } catch let error as LlamaError { return .failure(error) } catch {
            return .failure(LlamaError(reason: "\(error)"))
        }
    }()

    struct LlamaError: Error { var reason: String }

    private init() throws {
        port = TransportTests.closedPort()
        // A small keeper runs the server and stops it when its stdin closes, that is when this
        // test process ends, however it ends.
        let keeper = """
            import subprocess, sys
            server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server"] + sys.argv[1:],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            sys.stdin.read()
            server.kill()  # it does not always end on SIGTERM
            server.wait()
            """
        process = try TestProcess(Self.python!, ["-c", keeper, "--model", Self.modelPath, "--host", "127.0.0.1", "--port", "\(port)",
                                                 "--n_ctx", "2048", "--verbose", "false"], input: .interactive)
        // Ready when /v1/models answers.
        let probe = try ModelFactory.open(["dialect": "openai", "model": "m", "base_url": "http://127.0.0.1:\(port)/v1", "api_key_required": "false"])
        for _ in 0..<240 {
            if (try? probe.listModels()) != nil { return }
            guard process.isRunning else { throw LlamaError(reason: "llama_cpp.server exited with \(process.wait().status)") }
            Thread.sleep(forTimeInterval: 0.25)
        }
        throw LlamaError(reason: "llama_cpp.server did not answer within 60 s")
    }
}
