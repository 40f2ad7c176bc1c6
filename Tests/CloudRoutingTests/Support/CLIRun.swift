import Foundation
import PluginFixtures
import MockCloudServer

/// One run of the built `tandem` binary (next to the test bundle) with a fixture's config, the
/// mock's key in its environment and every log line enabled (`TANDEM_LOG=debug`), so a test
/// can search all it printed.
struct CLIRun: Sendable {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem").path

    let status: Int32
    let stdout: String
    let stderr: String

    /// Runs `tandem --config <fixture's> arguments` to its end, on a thread of its own.
    static func run(_ fixture: CloudHostFixture, _ arguments: [String]) async throws -> CLIRun {
        try await onOwnThread { try CLIRun(fixture, arguments) }
    }

    private init(_ fixture: CloudHostFixture, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--config", fixture.configPath] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: fixture.folder)
        var environment = ProcessInfo.processInfo.environment
        environment[MockServer.keyVariable] = MockServer.apiKey
        environment.merge(MockServer.wrongKeyVariables) { _, new in new }
        environment["TANDEM_LOG"] = "debug"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        // Read stderr on its own thread: a full stderr pipe must not stall the process.
        let errData = PipeContents()
        let errDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: outData, as: UTF8.self)
        stderr = String(decoding: errData.data, as: UTF8.self)
    }

    /// stdout as one JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw CLIOutputError(description: "stdout is not one JSON object: \(stdout)")
        }
        return object
    }

    /// True when the key appears anywhere in what the run printed.
    var leaksKey: Bool { (stdout + stderr).contains(MockServer.apiKey) }
}

struct CLIOutputError: Error, CustomStringConvertible {
    var description: String
}

/// What a reader thread read, handed over after its semaphore.
private final class PipeContents: @unchecked Sendable {
    var data = Data()
}
