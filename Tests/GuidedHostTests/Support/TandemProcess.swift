import Foundation
import PluginFixtures

/// Runs the built `tandem` binary (next to the test bundle) in a temporary folder holding a
/// config with fake `local` and `cloud` backends and any files a test writes.
struct TandemProcess {
    let folder: String

    /// `local` and `cloud` settings; prefer-local.
    init(local: [String: String], cloud: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-guided-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try TestConfig(pluginsDirectory: FakePlugin.pluginsDirectory, routing: .mode("prefer-local"), backends: [
            "local": .fake(["kind": "local", "model_version": "local-v1"].merging(local) { _, extra in extra }),
            "cloud": .fake(["kind": "cloud", "model_version": "cloud-v1"].merging(cloud) { _, extra in extra }),
        ]).write(to: folder + "/tandem.json")
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    func run(_ arguments: [String]) throws -> TestProcess.Outcome {
        try TestProcess.runBlocking(PackagePaths.binary("tandem"), ["--config", folder + "/tandem.json"] + arguments, in: folder)
    }
}
