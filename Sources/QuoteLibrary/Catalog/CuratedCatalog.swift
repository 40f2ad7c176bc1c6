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
}
