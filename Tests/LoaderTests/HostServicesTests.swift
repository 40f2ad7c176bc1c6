import CTandemABI
import Foundation
import PluginFixtures
import Synchronization
import Tandem
import Testing

/// The services table plugins receive: secrets by environment variable or key file (never
/// logged), and logging through the host's handler with the plugin's name.
@Suite(.serialized) struct HostServicesTests {
    /// The host table the echo plugin was given, from a folder of its own.
    private static func hostTable() throws -> (PluginFolder, UnsafePointer<tandem_host>) {
        let folder = try PluginFolder()
        try folder.compile("echo.so", source: PluginFolder.echoSource)
        let catalog = PluginLoader(directory: folder.path).load()
        let plugin = try #require(catalog.plugins.first)
        return (folder, plugin.host)
    }

    /// Calls get_secret with the two-call idiom; returns the status of the sizing call, the
    /// final status and the value.
    private static func secret(_ host: UnsafePointer<tandem_host>, _ name: String) -> (sizing: tandem_status, status: tandem_status, value: String?) {
        var required = 0
        let sizing = host.pointee.get_secret!(host.pointee.host_data, name, nil, 0, &required)
        guard sizing == TANDEM_E_BUFFER_TOO_SMALL else { return (sizing, sizing, nil) }
        var buffer = [CChar](repeating: 0x55, count: required)
        let status = host.pointee.get_secret!(host.pointee.host_data, name, &buffer, required, &required)
        let value = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (sizing, status, status == TANDEM_OK ? value : nil)
    }

    /// `name` holding `value`. `make test` exports these before the test process starts: a setenv
    /// while other tests start processes crashed a full run (environ reallocated under
    /// Process.run's copy of it). A direct `swift test` sets them here.
    private static func environment(_ name: String, _ value: String) {
        if getenv(name).map({ String(cString: $0) }) != value { setenv(name, value, 1) }
    }

    @Test func secretsComeFromTheEnvironmentOrAKeyFileAndAreNeverLogged() throws {
        let (folder, host) = try Self.hostTable()
        let records = Mutex<[PluginLogRecord]>([])
        let previous = PluginHostServices.logHandler
        PluginHostServices.logHandler = { record in records.withLock { $0.append(record) } }
        defer { PluginHostServices.logHandler = previous }

        let unique = "TANDEM_TEST_SECRET"
        Self.environment(unique + "_KEY", "s3cret-from-env")
        #expect(Self.secret(host, unique + "_KEY") == (TANDEM_E_BUFFER_TOO_SMALL, TANDEM_OK, "s3cret-from-env"))

        let keyFile = try folder.write("gemini.key", Array("s3cret-from-file\n".utf8), mode: 0o600)
        #expect(Self.secret(host, keyFile) == (TANDEM_E_BUFFER_TOO_SMALL, TANDEM_OK, "s3cret-from-file"))
        let indirect = getenv(unique + "_INDIRECT_FILE").map { String(cString: $0) } ?? folder.path + "/indirect.key"
        try? FileManager.default.removeItem(atPath: indirect)
        #expect(FileManager.default.createFile(atPath: indirect, contents: Data("s3cret-from-file\n".utf8), attributes: [.posixPermissions: 0o600]))
        Self.environment(unique + "_INDIRECT_FILE", indirect)
        #expect(Self.secret(host, unique + "_INDIRECT").value == "s3cret-from-file")

        let looseFile = try folder.write("loose.key", Array("s3cret-loose".utf8), mode: 0o644)
        #expect(Self.secret(host, looseFile).sizing == TANDEM_E_AUTH)
        #expect(Self.secret(host, unique + "_UNSET").sizing == TANDEM_E_AUTH)
        #expect(Self.secret(host, "not a name").sizing == TANDEM_E_AUTH)
        #expect(Self.secret(host, "relative/path.key").sizing == TANDEM_E_AUTH)

        let logged = records.withLock { $0 }.filter { $0.source == "echo.so" }
        #expect(logged.contains { $0.level == .warn && $0.message.contains("loose.key is accessible by group or others (mode 0644)") })
        #expect(logged.contains { $0.message.contains("neither \(unique)_UNSET nor \(unique)_UNSET_FILE is set") })
        #expect(!logged.contains { $0.message.contains("s3cret") })
    }

    @Test func aTooSmallBufferIsLeftUntouched() throws {
        let (_, host) = try Self.hostTable()
        let name = "TANDEM_TEST_SECRET_SHORT"
        Self.environment(name, "abcdef")
        var buffer = [CChar](repeating: 0x55, count: 4)
        var required = 0
        #expect(host.pointee.get_secret!(host.pointee.host_data, name, &buffer, buffer.count, &required) == TANDEM_E_BUFFER_TOO_SMALL)
        #expect(required == 7)
        #expect(buffer.allSatisfy { $0 == 0x55 })
    }

    /// Runs `body` with the host's log lines collected; returns them.
    private static func collectingLog(_ body: () throws -> Void) rethrows -> [PluginLogRecord] {
        let records = Mutex<[PluginLogRecord]>([])
        let previous = PluginHostServices.logHandler
        PluginHostServices.logHandler = { record in records.withLock { $0.append(record) } }
        defer { PluginHostServices.logHandler = previous }
        try body()
        return records.withLock { $0 }
    }

    /// A host opened from a config file hands the plugin that file's folder, and the plain C
    /// plugin reads it through TANDEM_HAS_FIELD (it logs where relative paths would resolve).
    @Test func thePluginSeesTheConfigFilesFolder() throws {
        let plugins = try PluginFolder()
        try plugins.compile("echo.so", source: PluginFolder.echoSource)
        let configFolder = try PluginFolder()
        let configPath = configFolder.file("tandem.json")
        try #"{"plugins_dir": "\#(plugins.path)", "backends": {"echo": {"plugin": "tandem.echo-c", "isolation": "in-process"}}, "primary": "echo"}"#
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        var host: TandemHost?
        let logged = try Self.collectingLog { host = TandemHost.open(try TandemConfig.load(from: configPath)) }
        let plugin = try #require(host?.catalog?.plugin(id: "tandem.echo-c"))
        #expect(plugin.configDirectory == configFolder.path)
        #expect(plugin.host.pointee.config_directory.map { String(cString: $0) } == configFolder.path)
        #expect(host?.models["echo"] != nil, "\(host?.openFailures ?? [:])")
        #expect(logged.contains { $0.source == "echo.so" && $0.level == .debug
            && $0.message == "relative paths resolve against the config folder \(configFolder.path)" })
    }

    /// Plugins loaded without a config file get NULL: they fall back to the working directory.
    @Test func withoutAConfigFileTheFolderIsNull() throws {
        let (_, host) = try Self.hostTable()
        #expect(host.pointee.struct_size >= UInt32(MemoryLayout<tandem_host>.offset(of: \.config_directory)! + MemoryLayout<UnsafePointer<CChar>?>.size))
        #expect(host.pointee.config_directory == nil)
    }

    /// A plugin file is entered once per process and keeps its first table: a host opened from
    /// a config elsewhere says so in a warning naming both folders, never silently.
    @Test func aConfigElsewhereInTheSameProcessIsWarnedAbout() throws {
        let plugins = try PluginFolder()
        try plugins.compile("echo.so", source: PluginFolder.echoSource)
        let first = try PluginFolder(), second = try PluginFolder()
        for folder in [first, second] {
            try #"{"plugins_dir": "\#(plugins.path)", "backends": {"echo": {"plugin": "tandem.echo-c", "isolation": "in-process"}}, "primary": "echo"}"#
                .write(toFile: folder.file("tandem.json"), atomically: true, encoding: .utf8)
        }
        let logged = try Self.collectingLog {
            _ = TandemHost.open(try TandemConfig.load(from: first.file("tandem.json")))
            _ = TandemHost.open(try TandemConfig.load(from: first.file("tandem.json")))
            let host = TandemHost.open(try TandemConfig.load(from: second.file("tandem.json")))
            #expect(host.catalog?.plugin(id: "tandem.echo-c")?.configDirectory == first.path)
        }
        let warnings = logged.filter { $0.source == "host" && $0.level == .warn && $0.message.contains(first.path) }
        #expect(warnings.map(\.message) == [
            "backend echo: tandem.echo-c was loaded earlier in this process for the config folder \(first.path); "
                + "relative paths in its settings resolve against that, not the config folder \(second.path)",
        ])
    }

    @Test func pluginLogLinesCarryThePluginFileAndLevel() throws {
        let (_, host) = try Self.hostTable()
        let records = Mutex<[PluginLogRecord]>([])
        let previous = PluginHostServices.logHandler
        PluginHostServices.logHandler = { record in records.withLock { $0.append(record) } }
        defer { PluginHostServices.logHandler = previous }
        host.pointee.log!(host.pointee.host_data, TANDEM_LOG_ERROR, "disk on fire")
        host.pointee.log!(host.pointee.host_data, 42, "unknown level")
        let logged = records.withLock { $0 }.filter { $0.source == "echo.so" }
        #expect(logged.map(\.level) == [.error, .info])
        #expect(logged.map(\.message) == ["disk on fire", "unknown level"])
    }
}
