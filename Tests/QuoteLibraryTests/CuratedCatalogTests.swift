import Foundation
import Testing
@testable import QuoteLibrary

@Suite("Curated public-domain catalog")
struct CuratedCatalogTests {
    static let supportedLocales: Set<String> = ["en", "de", "es", "fr", "it", "pt"]

    @Test func catalogHasEnoughQuotesInEveryLanguageWithTags() throws {
        let entries = try CuratedCatalog.entries()
        #expect(entries.count >= 300)
        let nonEnglish = entries.filter { $0.locale != "en" }
        #expect(nonEnglish.count >= 30)
        for locale in Self.supportedLocales { #expect(entries.contains { $0.locale == locale }, "no quotes in \(locale)") }
        for entry in entries {
            #expect(Self.supportedLocales.contains(entry.locale), "\(entry.text): locale \(entry.locale)")
            #expect(!entry.mood.isEmpty && !entry.category.isEmpty && !entry.theme.isEmpty, "\(entry.text): missing tags")
            #expect(!entry.author.isEmpty)
        }
        let keys = entries.map { QuoteText.normalizedKey($0.text) }
        #expect(Set(keys).count == keys.count, "duplicate texts in the catalog")
    }

    @Test func everyAuthorDiedMoreThanEightyYearsAgo() throws {
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        for entry in try CuratedCatalog.entries() {
            #expect(entry.died <= year - 80, "\(entry.author) died \(entry.died): not safely public domain")
        }
    }

    @Test func catalogLanguagesAgreeWithTheLanguageIdentifier() throws {
        // Long enough curated lines must be recognised as their own language: this guards the
        // catalog's locale tags and the identifier at once.
        var disagreements: [String] = []
        let long = try CuratedCatalog.entries().filter { QuoteText.words($0.text).count >= 8 }
        for entry in long where try LanguageIdentifier.shared.identify(entry.text).language != entry.locale {
            disagreements.append("\(entry.locale): \(entry.text)")
        }
        #expect(Double(disagreements.count) / Double(long.count) <= 0.05, "\(disagreements)")
    }

    @Test func importRunsOnceAndMarksRowsCuratedPublicDomain() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let expected = try CuratedCatalog.entries().count
        #expect(try CuratedCatalog.importIfNeeded(into: store) == expected)
        #expect(try CuratedCatalog.importIfNeeded(into: store) == 0)
        #expect(try store.count(source: .curated) == expected)
        let quote = try #require(try store.quote(matching: "Well done is better than well said."))
        #expect(quote.author == "Benjamin Franklin")
        #expect(quote.isPublicDomain)
        #expect(quote.source == .curated)
        #expect(quote.tags.categories == ["work"])
    }
}

@Suite("Quote of the day without a library")
struct CatalogTodayTests {
    /// With no library file the catalog gives the quote a fresh library gives, every locale.
    @Test func theCatalogsPickIsTheFreshLibrarysPick() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryAccess.openForWriting(path: folder.path("lib.sqlite"))
        for locale in ["en", "de", "es", "fr", "it", "pt", "nl"] {
            for date in ["2026-01-01", "2026-02-28", "2026-07-14", "2027-12-31"] {
                let day = try CalendarDay(date)
                let fromCatalog = try #require(try CuratedCatalog.today(locale: locale, day: day))
                let fromLibrary = try #require(try store.today(locale: locale, day: day))
                #expect(fromCatalog.id == fromLibrary.id && fromCatalog.text == fromLibrary.text, "\(locale) \(date)")
                #expect(fromCatalog.author == fromLibrary.author && fromCatalog.tags == fromLibrary.tags)
                #expect(fromCatalog.wordCount == fromLibrary.wordCount && fromCatalog.locale == fromLibrary.locale)
            }
        }
    }
}
