import Tandem

/// What every command may need: where the config is, and the host it describes.
struct CommandContext {
    /// `--config`, given before or after the command name.
    var configPath: String?

    func config() throws(ConfigError) -> TandemConfig {
        try TandemConfig.load(from: ConfigLocation.resolve(explicit: configPath))
    }

    /// Loads the plugins and opens the configured backends.
    func host() throws(ConfigError) -> TandemHost {
        let config = try config()
        Terminal.progress("loading plugins from \(config.pluginsDirectory)…")
        defer { Terminal.clearProgress() }
        return TandemHost.open(config)
    }
}
