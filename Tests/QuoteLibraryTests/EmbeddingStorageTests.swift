import Foundation
import Testing
@testable import QuoteLibrary

/// Schema 4: vectors in `quote_embeddings`, quotes of source `user`.
@Suite("Embedding storage and user quotes")
struct EmbeddingStorageTests {
    @Test func schemaFourKeepsTheVectorsTagsAndMarksOfAVersionTwoLibrary() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try SchemaMigrations.migrate(connection, upTo: 2)
            try connection.run("""
                INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale, word_count, created_at,
                                    embedding, embedding_model)
                VALUES ('Hope rises.', 'hope rises', 'Anon', 'curated', 1, 'en', 2, 'now', ?, 'old-model')
                """, [.blob(EmbeddingBlob.encode([0.25, -0.5]))])
            try connection.run("INSERT INTO quote_tags (quote_id, kind, tag) VALUES (1, 'mood', 'calm')")
            try connection.run("INSERT INTO quote_marks (quote_id, kind, marked_at) VALUES (1, 'saved', 'now')")
        }
        let store = try QuoteStore.open(path: path)
        #expect(try store.schemaVersion == SchemaMigrations.latestVersion)
        #expect(try store.quote(id: 1)?.tags.moods == ["calm"])
        #expect(try store.searchSaved(containing: nil, mark: .saved, limit: 5).map(\.id) == [1])
        #expect(try store.embeddingMatrix(model: "old-model", dimensions: 2).values.count == 2)
        #expect(try store.embeddingModels().map(\.count) == [1])
        let foreignKeys = try store.withConnection { try $0.scalarInt("PRAGMA foreign_keys") }
        #expect(foreignKeys == 1, "foreign keys are on again after migrating")
    }

    @Test func userQuotesAreNeverPublicDomainAndKeepTheirAuthor() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let ids = try store.addUserQuotes([
            UserQuote(text: "Mend the fence before the goat finds the lettuce.", locale: "en", author: "Ada", novelty: nil),
            UserQuote(text: "Repara la valla antes de que la cabra encuentre la lechuga.", locale: "es", author: nil,
                      novelty: NoveltyProof(model: "m", vector: [1, 0], threshold: 0.9, comparedThrough: .max)),
        ])
        let first = try #require(try store.quote(id: ids[0])), second = try #require(try store.quote(id: ids[1]))
        #expect(first.source == .user && !first.isPublicDomain && first.author == "Ada")
        #expect(second.source == .user && second.author == nil && second.locale == "es")
        #expect(try store.embeddingModels().map(\.model) == ["m"])
        #expect(throws: StoreError.self) {
            try store.withConnection { connection in
                try connection.run("""
                    INSERT INTO quotes (text, normalized_text, source, is_public_domain, locale, word_count, created_at)
                    VALUES ('x y', 'x y', 'user', 1, 'en', 2, 'now')
                    """)
            }
        }
    }

    @Test func aBatchWithACopyStoresNothing() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let line = "Mend the fence before the goat finds the lettuce."
        _ = try store.addUserQuotes([UserQuote(text: line, locale: "en", author: nil, novelty: nil)])
        #expect(throws: StoreError.self) {
            _ = try store.addUserQuotes([UserQuote(text: "A new line about the blue kettle.", locale: "en", author: nil, novelty: nil),
                                         UserQuote(text: line.uppercased(), locale: "en", author: nil, novelty: nil)])
        }
        #expect(try store.count() == 1)
    }

    @Test func aVectorThatIsNotFiniteIsRefused() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let id = try store.addUserQuotes([UserQuote(text: "One line here.", locale: "en", author: nil, novelty: nil)])[0]
        #expect(throws: StoreError.self) { try store.storeEmbeddings([(id, [1, .nan])], model: "m") }
        #expect(throws: StoreError.self) { try store.storeEmbeddings([(id + 1, [1, 0])], model: "m") }
        #expect(try store.embeddingModels().isEmpty, "a failing batch stores none of its vectors")
    }
}
