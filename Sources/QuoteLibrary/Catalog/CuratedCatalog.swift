import Foundation

/// The bundled public-domain catalog (`source = curated`, `is_public_domain = true`), imported
/// into a library on first use and again only when this build carries a newer catalog version.
public enum CuratedCatalog {
    /// Bumped whenever the catalog data changes, so existing libraries pick up new entries.
    public static let version = "2026.1"

    /// The parsed catalog. A malformed line is a build defect: the error names the line.
    public static func entries() throws -> [CuratedEntry] {
        let decoder = JSONDecoder()
        return try curatedCatalogLines.split(separator: "\n").enumerated().map { index, line in
            do {
                return try decoder.decode(CuratedEntry.self, from: Data(line.utf8))
            } catch {
                throw StoreError(.invalidArgument, "curated catalog line \(index + 1) is malformed: \(error)")
            }
        }
    }

    /// Imports the catalog unless this version is already there. Returns how many rows were added.
    @discardableResult
    public static func importIfNeeded(into store: QuoteStore) throws -> Int {
        guard try store.curatedCatalogVersion() != version else { return 0 }
        return try store.importCurated(try entries(), catalogVersion: version)
    }

    /// The quote of the day from the catalog alone (no library file yet): the row a fresh
    /// library would hold, ids in catalog order (the catalog has no duplicate texts).
    static func today(locale: String, day: CalendarDay) throws -> StoredQuote? {
        let rows = try entries().enumerated()
        for candidate in TodayPick.locales(for: locale) {
            let matching = rows.filter { $0.element.locale == candidate }
            guard !matching.isEmpty else { continue }
            let (index, entry) = matching[TodayPick.offset(of: day, among: matching.count)]
            // As the library reads tags back: lower-cased, unique, sorted.
            func stored(_ tags: [String]) -> [String] { Set(tags.map { $0.lowercased() }).sorted() }
            let tags = QuoteTags(moods: stored(entry.mood), categories: stored(entry.category), themes: stored(entry.theme))
            return StoredQuote(id: Int64(index + 1), text: entry.text, author: entry.author, source: .curated,
                               isPublicDomain: true, locale: entry.locale, tags: tags,
                               wordCount: QuoteText.words(entry.text).count, scores: nil, modelVersion: nil,
                               createdAt: Timestamp.now())
        }
        return nil
    }
}
