import Foundation

/// How the host opens the library: writers get a migrated store with the curated catalog
/// imported (on first use, or when this build carries a newer catalog); readers (today view,
/// list, search, check, agent tools) never write: a read-only connection to the file, or, when
/// no library exists yet, the bundled catalog in memory (the file is not created).
public enum LibraryAccess {
    public static func openForWriting(path: String) throws -> QuoteStore {
        let store = try QuoteStore.open(path: path)
        try CuratedCatalog.importIfNeeded(into: store)
        return store
    }

    /// A reader's store. A library on an older schema or catalog is read as it is; the next
    /// writing command migrates it and imports the newer catalog.
    public static func openForReading(path: String) throws -> QuoteStore {
        guard FileManager.default.fileExists(atPath: path) else {
            return try QuoteStore.inMemory(curated: try CuratedCatalog.entries(), catalogVersion: CuratedCatalog.version)
        }
        return try QuoteStore.openReadOnly(path: path)
    }

    /// The quote of the day without writing: from the library read-only, or, with no library
    /// yet, straight from the bundled catalog (no in-memory import: the today view stays fast).
    public static func today(path: String, locale: String, day: CalendarDay) throws -> StoredQuote? {
        guard FileManager.default.fileExists(atPath: path) else { return try CuratedCatalog.today(locale: locale, day: day) }
        return try QuoteStore.openReadOnly(path: path).today(locale: locale, day: day)
    }
}
