import Foundation

/// How the host opens the library: writers get a migrated store with the curated catalog
/// imported (on first use, or when this build carries a newer catalog); readers (today view,
/// agent tools) get a read-only connection, after a one-time set-up if the file is new.
public enum LibraryAccess {
    public static func openForWriting(path: String) throws -> QuoteStore {
        let store = try QuoteStore.open(path: path)
        try CuratedCatalog.importIfNeeded(into: store)
        return store
    }

    /// A read-only connection. Only when the library does not exist yet, is on an older schema,
    /// or lacks this build's catalog is it first opened for writing once to set it up.
    public static func openForReading(path: String) throws -> QuoteStore {
        if FileManager.default.fileExists(atPath: path), let reader = try? QuoteStore.openReadOnly(path: path),
           try reader.curatedCatalogVersion() == CuratedCatalog.version {
            return reader
        }
        _ = try openForWriting(path: path)
        return try QuoteStore.openReadOnly(path: path)
    }
}
