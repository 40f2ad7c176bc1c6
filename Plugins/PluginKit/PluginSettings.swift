import CTandemABI
import TandemBridge

/// A backend's settings as the host passed them to `open_model`: text pairs from the config's
/// `settings` object. Typed accessors record which keys were read so that `finish()` can reject
/// the rest: a typo in a config is an error, never silently ignored.
public struct PluginSettings: Sendable {
    public private(set) var values: [String: String]
    /// The folder relative path settings are resolved against (`tandem_host.config_directory`);
    /// nil: the working directory.
    public let configDirectory: String?
    private var consumed: Set<String> = []

    public init(_ values: [String: String], configDirectory: String? = nil) {
        self.values = values
        self.configDirectory = configDirectory
    }

    /// Decodes the borrowed pairs of `open_model`.
    public init(_ pairs: UnsafePointer<tandem_kv>?, count: Int, configDirectory: String?) throws(BackendFailure) {
        var values: [String: String] = [:]
        if count > 0 {
            guard let pairs else { throw BackendFailure(.invalidArgument, "settings is NULL with count \(count)") }
            for index in 0..<count {
                guard let key = String(validating: pairs[index].key), let value = String(validating: pairs[index].value) else {
                    throw BackendFailure(.invalidArgument, "setting #\(index) is not valid UTF-8")
                }
                values[key] = value
            }
        }
        self.init(values, configDirectory: configDirectory)
    }

    public mutating func string(_ key: String) -> String? {
        consumed.insert(key)
        return values[key]
    }

    public mutating func string(_ key: String, default fallback: String) -> String {
        string(key) ?? fallback
    }

    /// A file path, resolved against the config's folder (see `SettingPath`). An empty value is an error.
    public mutating func path(_ key: String) throws(BackendFailure) -> SettingPath? {
        guard let text = string(key) else { return nil }
        return try SettingPath(key: key, given: text, configDirectory: configDirectory)
    }

    public mutating func integer(_ key: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(BackendFailure) -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw BackendFailure(.invalidArgument, "setting \(key): expected an integer in \(range.lowerBound)...\(range.upperBound), got \(text)")
        }
        return value
    }

    public mutating func number(_ key: String) throws(BackendFailure) -> Double? {
        guard let text = string(key) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw BackendFailure(.invalidArgument, "setting \(key): expected a number, got \(text)")
        }
        return value
    }

    public mutating func boolean(_ key: String) throws(BackendFailure) -> Bool? {
        guard let text = string(key) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw BackendFailure(.invalidArgument, "setting \(key): expected true or false, got \(text)")
        }
    }

    /// One of the given names; the error lists them.
    public mutating func choice(_ key: String, among names: [String]) throws(BackendFailure) -> String? {
        guard let text = string(key) else { return nil }
        guard names.contains(text) else {
            throw BackendFailure(.invalidArgument, "setting \(key): expected one of \(names.joined(separator: ", ")), got \(text)")
        }
        return text
    }

    /// Throws naming the first key that no accessor read.
    public func finish() throws(BackendFailure) {
        if let unknown = values.keys.sorted().first(where: { !consumed.contains($0) }) {
            throw BackendFailure(.invalidArgument, "unknown setting \"\(unknown)\"")
        }
    }
}
