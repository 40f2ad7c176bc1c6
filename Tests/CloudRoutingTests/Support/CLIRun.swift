import Foundation
import PluginFixtures
import MockCloudServer

/// One run of the built `tandem` binary (next to the test bundle) with a fixture's config, the
/// mock's key in its environment and every log line enabled (`TANDEM_LOG=debug`), so a test
/// can search all it printed. The plugins' cache folder (`XDG_CACHE_HOME`) is the fixture's own,
/// shared by its runs: a rate-limit cooldown one run wrote holds in the next run of the same
/// fixture and nowhere else.
struct CLIRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Runs `tandem --config <fixture's> arguments` to its end, off the cooperative pool;
    /// `environment` adds to (or overrides) the variables above.
    static func run(_ fixture: CloudHostFixture, _ arguments: [String], environment extra: [String: String] = [:]) async throws -> CLIRun {
        let environment = MockServer.wrongKeyVariables.merging(
            [MockServer.keyVariable: MockServer.apiKey, "TANDEM_LOG": "debug", "XDG_CACHE_HOME": fixture.cacheFolder]) { _, new in new }
            .merging(extra) { _, new in new }
        let outcome = try await TestProcess.run(PackagePaths.binary("tandem"), ["--config", fixture.configPath] + arguments,
                                                in: fixture.folder, environment: environment)
        return CLIRun(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr)
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
