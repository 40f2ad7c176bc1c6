import Foundation
import PluginFixtures

/// Runs the built `tandem` binary (next to the test bundle) in a temporary folder holding a
/// config with fake `local` and `cloud` backends and any files a test writes.
struct TandemProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem").path

    let folder: String

    /// `local` and `cloud` settings (values as JSON text, e.g. `"\"sunny\""`); prefer-local.
    init(local: [String: String], cloud: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-guided-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func settings(_ kind: String, _ extra: [String: String]) -> String {
            let all = extra.merging(["kind": "\"\(kind)\"", "model_version": "\"\(kind)-v1\""]) { mine, _ in mine }
            return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
        try write("tandem.json", """
            {"plugins_dir": "\(FakePlugin.pluginsDirectory)", "mode": "prefer-local",
             "backends": {"local": {"plugin": "tandem.fake", "settings": \(settings("local", local))},
                          "cloud": {"plugin": "tandem.fake", "settings": \(settings("cloud", cloud))}}}
            """)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--config", folder + "/tandem.json"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A JSON string literal of `text`, for settings values.
func jsonString(_ text: String) -> String {
    String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
}
