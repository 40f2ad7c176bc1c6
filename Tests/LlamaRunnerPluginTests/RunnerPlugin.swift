import Foundation
import PluginFixtures
import Tandem

/// The installed `tandem.llama` plugin (plugins.d/, or `TANDEM_PLUGINS_DIR`), loaded once through
/// the real loader; `make test` builds it in release and installs it first.
enum RunnerPlugin {
    static let packageRoot = PackagePaths.root
    static let pluginsDirectory = PackagePaths.plugins
    static let catalog = PluginLoader(directory: pluginsDirectory).load()
    static let modelPath = PackagePaths.models + "/SmolLM2-135M-Instruct.Q4_1.gguf"
    static let modelSHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

    static func plugin() throws(BackendFailure) -> LoadedPlugin {
        guard let plugin = catalog.plugin(id: "tandem.llama") else {
            throw BackendFailure(.initFailed, "tandem.llama is not in \(pluginsDirectory) (run make plugins); rejected: \(catalog.rejections)")
        }
        return plugin
    }

    /// A model opened with `settings` (the real model at a small context unless overridden).
    static func open(_ settings: [String: String] = [:]) throws(BackendFailure) -> PluginBackend {
        var all = ["model": modelPath, "context": "1024", "threads": "1"]
        all.merge(settings) { $1 }
        return try plugin().openModel(backendID: "llama-test", settings: all)
    }

    /// The real model, shared by the generation tests (loaded once, on first generate). A plugin
    /// that is not installed fails each test that needs it, not the test process.
    static let shared: Result<PluginBackend, BackendFailure> = Result { () throws(BackendFailure) in try open() }

    /// A fresh folder under the system's temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "tandem-llama-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// One run of a binary built beside the test bundle (`tandem` unless told, `tandem-llama`) to
/// its end, in `directory` (the test's own when nil), with `environment` added to the test
/// process's.
func runBuilt(_ arguments: [String], binary: String = "tandem", in directory: String? = nil,
              environment: [String: String] = [:]) throws -> TestProcess.Outcome {
    try TestProcess.runBlocking(PackagePaths.binary(binary), arguments, in: directory, environment: environment)
}

extension PluginBackend {
    /// Generates, collecting every event.
    func collect(_ request: BackendRequest, cancellation: CancellationToken = CancellationToken()) throws(BackendFailure) -> (text: String, events: [BackendEvent], result: BackendResult) {
        var events: [BackendEvent] = []
        let result = try generate(request, cancellation: cancellation) { event in
            events.append(event)
            return true
        }
        let text = events.map { if case .text(let t) = $0 { t } else { "" } }.joined()
        return (text, events, result)
    }
}
