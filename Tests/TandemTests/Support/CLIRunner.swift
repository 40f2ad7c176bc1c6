import Foundation
import PluginFixtures

/// Runs the built `tandem` binary (next to the test bundle) with a config of its own.
struct CLIRunner {
    typealias Outcome = TestProcess.Outcome

    struct CLIFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let binary = PackagePaths.binary("tandem")

    /// A temporary folder holding `tandem.json`; removed by `cleanUp`.
    let folder: String

    init(config: String) throws {
        var template = Array("/tmp/tandem-cli-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CLIFailure(message: "mkdtemp failed") }
        folder = String(cString: made)
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    var configPath: String { folder + "/tandem.json" }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    /// The example shape: a fake local and a fake cloud, with extra settings per side.
    static func config(
        local: [String: String] = [:], cloud: [String: String] = [:], mode: String = "prefer-local",
        pluginsDirectory: String = PackagePaths.plugins
    ) -> String {
        TestConfig(pluginsDirectory: pluginsDirectory, routing: .mode(mode), backends: [
            "local": .fake(["kind": "local", "model_version": "local-v1"].merging(local) { _, extra in extra }),
            "cloud": .fake(["kind": "cloud", "model_version": "cloud-v1"].merging(cloud) { _, extra in extra }),
        ]).json
    }

    /// Runs `tandem --config <ours> arguments`; `interruptAfter` sends SIGINT after that delay.
    func run(_ arguments: [String], stdin: String? = nil, useConfig: Bool = true, interruptAfter: Duration? = nil) throws -> Outcome {
        try TestProcess.runBlocking(Self.binary, (useConfig ? ["--config", configPath] : []) + arguments, in: folder,
                                    input: .text(stdin ?? ""), interruptAfter: interruptAfter)
    }
}
