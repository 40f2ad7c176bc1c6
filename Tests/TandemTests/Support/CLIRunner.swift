import Foundation
import PluginFixtures
import Synchronization

/// Runs the built `tandem` binary (next to the test bundle) with a config of its own.
struct CLIRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout as one JSON object.
        func json() throws -> [String: Any] {
            let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let object = value as? [String: Any] else { throw CLIFailure(message: "not an object: \(stdout)") }
            return object
        }
    }

    struct CLIFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem").path

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
        pluginsDirectory: String = ModelFactory.pluginsDirectory
    ) -> String {
        func settings(_ kind: String, _ extra: [String: String]) -> String {
            let all = extra.merging(["kind": kind, "model_version": "\(kind)-v1"]) { a, _ in a }
            return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}"
        }
        return """
            {"plugins_dir": "\(pluginsDirectory)", "mode": "\(mode)",
             "backends": {"local": {"plugin": "tandem.fake", "settings": \(settings("local", local))},
                          "cloud": {"plugin": "tandem.fake", "settings": \(settings("cloud", cloud))}}}
            """
    }

    /// Runs `tandem --config <ours> arguments`; `interruptAfter` sends SIGINT after that delay.
    func run(_ arguments: [String], stdin: String? = nil, useConfig: Bool = true, interruptAfter: Duration? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = (useConfig ? ["--config", configPath] : []) + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try ProcessLaunch.run(process)
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: Double(interruptAfter.components.seconds) + Double(interruptAfter.components.attoseconds) / 1e18)
            kill(process.processIdentifier, SIGINT)
        }
        // stderr is drained while stdout is read: a command that writes more than a pipe holds
        // to stderr (a plugin's noise) would otherwise block before closing stdout.
        let errors = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            drained.signal()
        }.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        let stderr = errors.withLock { $0 }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
