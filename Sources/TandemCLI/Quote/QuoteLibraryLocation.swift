import QuoteLibrary
import Tandem

/// Where the quote library lives: the config's `store` key (relative to the config file's
/// folder). Opening it never loads a plugin.
extension CommandContext {
    func libraryPath(_ config: TandemConfig) throws(ConfigError) -> String {
        guard let path = config.store else {
            throw ConfigError(.missingKey, file: config.file, keyPath: "store",
                              "missing (the quote library needs a database path, e.g. \"store\": \"tandem.sqlite\")")
        }
        return path
    }

    /// A store that never writes (list, search, today, ask): the file read-only, or the bundled
    /// catalog in memory when there is no library yet.
    func readLibrary() throws -> QuoteStore {
        try LibraryAccess.openForReading(path: libraryPath(try config()))
    }

    /// A writing connection with the curated catalog imported.
    func writeLibrary(_ config: TandemConfig) throws -> QuoteStore {
        try LibraryAccess.openForWriting(path: libraryPath(config))
    }
}
