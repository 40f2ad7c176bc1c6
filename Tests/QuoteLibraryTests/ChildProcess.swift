import Foundation
import PluginFixtures

/// Starts the QuoteStoreCrashWriter helper built next to the test binary.
enum ChildProcess {
    static func crashWriter(_ arguments: [String]) throws -> TestProcess {
        try TestProcess(PackagePaths.binary("QuoteStoreCrashWriter"), arguments)
    }
}
