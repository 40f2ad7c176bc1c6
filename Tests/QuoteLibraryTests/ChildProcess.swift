import Foundation
import PluginFixtures

/// Starts the QuoteStoreCrashWriter helper built next to the test binary.
enum ChildProcess {
    static var crashWriterURL: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("QuoteStoreCrashWriter")
    }

    static func crashWriter(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = crashWriterURL
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try ProcessLaunch.run(process)
        return (process, output)
    }
}
