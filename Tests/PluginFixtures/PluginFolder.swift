import Foundation

/// A temporary plugins folder (mode 0700, its own per test) and the means to fill it: plugins
/// compiled from C with cc, and raw bytes. Removed on deinit.
public final class PluginFolder {
    public static let packageRoot = PackagePaths.root
    public static let fixtureSource = packageRoot + "/Tests/LoaderTests/Fixtures/fixture_plugin.c"
    public static let echoSource = packageRoot + "/Plugins/EchoC/echo.c"
    /// Crashes, hangs and garbage on demand, for the isolation tests.
    public static let crashingSource = packageRoot + "/Tests/LoaderTests/Fixtures/crashing_plugin.c"

    public let path: String

    public init() throws {
        var template = Array("/tmp/tandem-loader-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CommandFailure(message: "mkdtemp: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Compiles `source` into `name` with the flags plugins are built with, plus `-D` defines.
    @discardableResult
    public func compile(_ name: String, source: String = PluginFolder.fixtureSource, defines: [String] = [], extraFlags: [String] = ["-shared"], libraries: [String] = []) throws -> String {
        let output = file(name)
        try Self.run("/usr/bin/cc", extraFlags + [
            "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fvisibility=hidden",
            "-I", Self.packageRoot + "/Sources/CTandemABI/include", "-o", output, source,
        ] + defines.map { "-D" + $0 } + libraries)
        return output
    }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o755) throws -> String {
        let output = file(name)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CommandFailure(message: "cannot write \(output)")
        }
        chmod(output, mode)
        return output
    }

    public func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }

    /// Runs `executable arguments` to its end; throws with its stderr when it fails.
    public static func run(_ executable: String, _ arguments: [String]) throws {
        let outcome = try TestProcess.runBlocking(executable, arguments)
        guard outcome.status == 0, !outcome.signaled else {
            throw CommandFailure(message: "\(executable) \(arguments.joined(separator: " ")) failed: \(outcome.stderr)")
        }
    }
}

extension Array<UInt8> {
    public func write(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(self)) else {
            throw CommandFailure(message: "cannot write \(path)")
        }
    }
}

public struct CommandFailure: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
