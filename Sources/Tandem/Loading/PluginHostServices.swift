import CTandemABI
import Glibc
import Synchronization

/// One line a plugin logged through the host.
public struct PluginLogRecord: Sendable {
    public enum Level: Int, Comparable, Sendable, CustomStringConvertible {
        case debug, info, warn, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var description: String { ["debug", "info", "warn", "error"][rawValue] }
    }
    /// The plugin's file name (e.g. `tandem.fake.so`), or `host` for the host's own lines.
    public let source: String
    public let level: Level
    public let message: String
}

/// The services table (`tandem_host`) the host hands to every plugin: logging, secrets, and the
/// config file's folder that relative path settings are anchored to.
///
/// Each plugin file gets its own table, so log lines say which plugin wrote them. Tables are
/// never freed: plugins keep them until shutdown, and plugins stay resident for the process.
public enum PluginHostServices {
    /// Where plugin log lines go. The default writes `tandem[<source>] <level>: <message>` to
    /// stderr for levels at or above `TANDEM_LOG` (`debug`, `info`, `warn`, `error`; default `info`).
    public static var logHandler: @Sendable (PluginLogRecord) -> Void {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    private static let handler = Mutex<@Sendable (PluginLogRecord) -> Void>(writeToStandardError)

    private static let threshold: PluginLogRecord.Level = {
        switch getenv("TANDEM_LOG").map({ String(cString: $0) }) {
        case "debug": .debug
        case "warn": .warn
        case "error": .error
        default: .info
        }
    }()

    @Sendable private static func writeToStandardError(_ record: PluginLogRecord) {
        guard record.level >= threshold else { return }
        // One write(2) per line, so lines from concurrent plugins do not interleave.
        var line = "tandem[\(record.source)] \(record.level): \(record.message)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    static func log(source: String, _ level: PluginLogRecord.Level, _ message: String) {
        logHandler(PluginLogRecord(source: source, level: level, message: message))
    }

    /// A new, immortal table for the plugin file named `source`, loaded for a config file in
    /// `configDirectory` (absolute; nil when the config came from no file).
    static func makeTable(source: String, configDirectory: String?) -> UnsafePointer<tandem_host> {
        let context = Unmanaged.passRetained(HostContext(source: source)).toOpaque()
        let table = UnsafeMutablePointer<tandem_host>.allocate(capacity: 1)
        table.initialize(to: tandem_host(
            struct_size: UInt32(MemoryLayout<tandem_host>.size),
            host_data: context,
            log: { data, level, message in
                guard let data, let message else { return }
                let source = Unmanaged<HostContext>.fromOpaque(data).takeUnretainedValue().source
                let mapped: PluginLogRecord.Level = switch level {
                case TANDEM_LOG_DEBUG: .debug
                case TANDEM_LOG_WARN: .warn
                case TANDEM_LOG_ERROR: .error
                default: .info
                }
                PluginHostServices.log(source: source, mapped, String(cString: message))
            },
            get_secret: { data, name, value, capacity, required in
                guard let data, let name else { return TANDEM_E_INVALID_ARGUMENT }
                let source = Unmanaged<HostContext>.fromOpaque(data).takeUnretainedValue().source
                return SecretLookup.answer(name: String(cString: name), source: source, value: value, capacity: capacity, required: required)
            },
            config_directory: configDirectory.map { UnsafePointer(strdup($0)!) }))
        return UnsafePointer(table)
    }
}

private final class HostContext: Sendable {
    let source: String
    init(source: String) { self.source = source }
}
