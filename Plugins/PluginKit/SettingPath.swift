import Glibc

/// A path-valued setting, resolved the way a user who wrote the config expects: a relative path
/// is relative to the config file's folder (`tandem_host.config_directory`), or to the working
/// directory when the host gave no folder (a config not read from a file, or an older host).
/// Absolute paths are kept as written; `~` is not expanded (JSON configs never expand it).
public struct SettingPath: Sendable, Equatable, CustomStringConvertible {
    /// The setting's key, e.g. `model`.
    public let key: String
    /// The value as the config wrote it.
    public let given: String
    /// The absolute path the plugin uses.
    public let resolved: String
    /// The folder a relative value was resolved against; nil for an absolute value.
    public let base: Base?

    public enum Base: Sendable, Equatable {
        case configDirectory(String)
        case workingDirectory(String)
    }

    /// `given` resolved against `configDirectory`, else the working directory now.
    public init(key: String, given: String, configDirectory: String?) throws(BackendFailure) {
        guard !given.isEmpty else { throw BackendFailure(.invalidArgument, "setting \(key): expected a file path, got an empty string") }
        self.key = key
        self.given = given
        if given.hasPrefix("/") {
            base = nil
        } else if let configDirectory {
            base = .configDirectory(configDirectory)
        } else {
            guard let cwd = getcwd(nil, 0) else {
                throw BackendFailure(.io, "setting \(key): cannot resolve \"\(given)\": the working directory is unknown (errno \(errno))")
            }
            defer { free(cwd) }
            base = .workingDirectory(String(cString: cwd))
        }
        resolved = switch base {
        case nil: given
        case .configDirectory(let folder), .workingDirectory(let folder): Self.join(folder, given)
        }
    }

    /// For error messages: `setting model "m.gguf" (relative to the config folder /etc/tandem)`.
    public var description: String {
        switch base {
        case nil: "setting \(key) \"\(given)\""
        case .configDirectory(let folder): "setting \(key) \"\(given)\" (relative to the config folder \(folder))"
        case .workingDirectory(let folder): "setting \(key) \"\(given)\" (relative to the working directory \(folder); the host gave no config folder)"
        }
    }

    /// `folder/relative`, dropping leading `./` components; `..` is kept for the kernel to follow.
    private static func join(_ folder: String, _ relative: String) -> String {
        var rest = Substring(relative)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop { $0 == "/" } }
        if rest == "." || rest.isEmpty { return folder }
        return folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
    }
}
