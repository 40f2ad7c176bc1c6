import Foundation

/// Where the config file is: `--config PATH`, else `$TANDEM_CONFIG`, else `tandem.json` next to
/// the executable, else `tandem.json` in the working directory. An explicit path (flag or
/// variable) must exist; it never falls through to the defaults.
public enum ConfigLocation {
    public static let defaultFileName = "tandem.json"

    public static func resolve(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        executableDirectory: String? = Bundle.main.executableURL?.deletingLastPathComponent().path,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigError) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = environment["TANDEM_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
        let candidates = [executableDirectory, workingDirectory].compactMap { folder in
            folder.map { ($0 as NSString).appendingPathComponent(defaultFileName) }
        }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { return found }
        throw ConfigError(
            .notFound, file: defaultFileName, keyPath: "",
            "no config file: give --config PATH or set TANDEM_CONFIG (searched \(candidates.joined(separator: ", ")))")
    }
}
