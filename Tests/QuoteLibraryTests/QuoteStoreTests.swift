import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

@Suite("Quote store on SQLite")
struct QuoteStoreTests {
    static let ready = ReadinessReport(primary: .available, secondary: .available, judge: .available, embedder: .available)

    static func sample(_ text: String, embedding: [Float]? = nil) -> GeneratedQuote {
        GeneratedQuote(text: text, locale: "en", tags: QuoteTags(moods: ["calm"], categories: ["work"], themes: ["tea"]),
                       scores: QuoteScores(judge: JudgeScores(quality: 7, originality: 6, warmth: 8, overall: 7),
                                           judgeSource: "model", distinctiveness: 6.5),
                       modelVersion: "test-model-1",
                       novelty: embedding.map { NoveltyProof(model: "test-embedder", vector: $0, threshold: 0.9, comparedThrough: .max) })
    }

    static func acceptedRun(_ text: String) -> GenerationRun {
        var run = GenerationRun(startedAt: Timestamp.now(), locale: "en", budget: "foreground", readiness: ready)
        run.branch = .accepted
        run.draftText = text
        return run
    }

    @Test func newDatabaseIsMigratedToTheLatestVersionWithHistoryAndWAL() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        #expect(try store.schemaVersion == SchemaMigrations.latestVersion)
        let history = try store.withConnection { try $0.query("SELECT version FROM schema_history ORDER BY version") { $0.int(0) } }
        #expect(history == Array(1...Int64(SchemaMigrations.latestVersion)))
        #expect(try store.withConnection { try $0.scalarText("PRAGMA journal_mode") } == "wal")
    }

    /// A database file at an older schema version holding the rows `insert` writes.
    static func makeDatabase(at path: String, schemaVersion: Int, _ insert: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try SchemaMigrations.migrate(connection, upTo: schemaVersion)
        try connection.run(insert)
    }

    /// A library at every older version: readers see its rows without migrating, and the next
    /// writer brings it to the latest version keeping them.
    @Test(arguments: 1..<SchemaMigrations.latestVersion)
    func olderDatabaseReadsAsItIsAndMigratesForwardKeepingItsRows(version: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v\(version).sqlite")
        try Self.makeDatabase(at: path, schemaVersion: version, """
                INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale, word_count, created_at)
                VALUES ('Well done is better than well said.', 'well done is better than well said', 'Benjamin Franklin',
                        'curated', 1, 'en', 7, '2026-01-01T00:00:00Z')
                """)
        let reader = try QuoteStore.openReadOnly(path: path)
        #expect(try reader.schemaVersion == version)
        #expect(try reader.list(source: .curated, locale: "en").map(\.author) == ["Benjamin Franklin"])
        #expect(try reader.search("better than").count == 1)
        #expect(try reader.today(locale: "en", day: CalendarDay("2026-01-01"))?.text == "Well done is better than well said.")
        let store = try QuoteStore.open(path: path)
        #expect(try store.schemaVersion == SchemaMigrations.latestVersion)
        #expect(try store.count() == 1)
        #expect(try store.runs().isEmpty)
    }

    /// A run written at schema 2 (before stage timings and escalation) stays readable, read-only
    /// before any writer migrated the file, and after migrating, with the new fields empty.
    @Test func aRunFromSchemaTwoReadsWithoutTimingsBeforeAndAfterMigrating() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v2.sqlite")
        try Self.makeDatabase(at: path, schemaVersion: 2, """
                INSERT INTO generation_runs (started_at, locale, budget, primary_availability, secondary_availability,
                    judge_availability, embedder_availability, model_version, elapsed_ms, branch, gate, reason,
                    novelty_proven, judge_source, draft_text, persistence, quote_id)
                VALUES ('2026-01-01T00:00:00Z', 'en', 'foreground', 'available', 'offline', 'available', 'available',
                        'old-model', 1234, 'rejected', 'length', 'too short', 0, NULL, 'Too short.', 'not attempted', NULL)
                """)
        let reader = try QuoteStore.openReadOnly(path: path)
        #expect(try reader.schemaVersion == 2 && reader.count() == 0)
        let run = try #require(try QuoteStore.open(path: path).runs().first)
        #expect(run.modelVersion == "old-model" && run.elapsedMilliseconds == 1234 && run.gate == "length")
        #expect(run.timings == StageTimings() && run.escalation == nil && run.servedBy == nil)
    }

    @Test func newerSchemaIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("new.sqlite")
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("PRAGMA user_version = 99")
        }
        let error = #expect(throws: StoreError.self) { try QuoteStore.open(path: path) }
        #expect(error?.code == .schemaTooNew)
        #expect(error?.message.contains("99") == true)
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.scalarInt("PRAGMA user_version") == 99)
    }

    @Test func persistStoresQuoteTagsAndRunTogether() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let text = "Fold the letter twice and carry it until your hands stop shaking."
        let id = try store.persist(Self.sample(text, embedding: [0.5, -1, 2]), run: Self.acceptedRun(text))
        let stored = try #require(try store.quote(id: id))
        #expect(stored.text == text)
        #expect(stored.author == nil)
        #expect(stored.source == .generated)
        #expect(stored.isPublicDomain == false)
        #expect(stored.tags == QuoteTags(moods: ["calm"], categories: ["work"], themes: ["tea"]))
        #expect(stored.wordCount == 12)
        #expect(stored.scores?.judge.overall == 7)
        #expect(stored.modelVersion == "test-model-1")
        let vectors = try store.withConnection { connection in
            try connection.query("SELECT quote_id, vector FROM quote_embeddings WHERE model = 'test-embedder'") {
                ($0.int(0), EmbeddingBlob.decode($0.blobBytes(1)))
            }
        }
        #expect(vectors.count == 1 && vectors.first?.0 == id && vectors.first?.1 == [0.5, -1, 2], "stored as given, not normalised")
        let run = try #require(try store.runs().first)
        #expect(run.quoteID == id)
        #expect(run.persistence == .stored)
    }

    @Test func uniqueKeyIgnoresCaseAccentsAndPunctuation() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        _ = try store.persist(Self.sample("Café doors open early for the people who sweep."), run: Self.acceptedRun("a"))
        let error = #expect(throws: StoreError.self) {
            try store.persist(Self.sample("cafe DOORS open early, for the people who sweep"), run: Self.acceptedRun("b"))
        }
        #expect(error?.code == .constraint)
        #expect(try store.count() == 1)
        #expect(try store.runs().count == 1)
    }

    @Test func schemaRefusesAnAuthorOnAGeneratedRow() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let error = #expect(throws: StoreError.self) {
            try store.withConnection {
                try $0.run("""
                    INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale, word_count, created_at)
                    VALUES ('x y', 'x y', 'Mark Twain', 'generated', 0, 'en', 2, '2026-01-01T00:00:00Z')
                    """)
            }
        }
        #expect(error?.code == .constraint)
    }

    @Test func readOnlyConnectionRefusesEveryWriteAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        _ = try QuoteStore.open(path: path)
        let reader = try QuoteStore.openReadOnly(path: path)
        #expect(reader.isReadOnly)
        #expect(try reader.withConnection { try $0.scalarInt("PRAGMA query_only") } == 1)
        let error = #expect(throws: StoreError.self) {
            try reader.persist(Self.sample("Carry the lantern down to the boats before the tide turns."),
                               run: Self.acceptedRun("x"))
        }
        #expect(error?.code == .readOnly)
        #expect(error?.message.contains(path) == true)
        #expect(try reader.count() == 0)
        #expect(try reader.runs().isEmpty)
    }

    @Test func readOnlyOpenNeverCreatesAFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing.sqlite")
        let error = #expect(throws: StoreError.self) { try QuoteStore.openReadOnly(path: path) }
        #expect(error?.code == .cannotOpen)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func fullDatabaseRollsBackTheWholeQuoteAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        let pages = try QuoteStore.open(path: path).withConnection { try $0.scalarInt("PRAGMA page_count") }
        let store = try QuoteStore.open(path: path, maximumPageCount: Int(pages) + 2)
        var stored = 0
        var failure: StoreError?
        for index in 0..<50 {
            let text = "Quote \(index) waters the basil on the sill before the long bus ride."
            do {
                _ = try store.persist(Self.sample(text, embedding: [Float](repeating: 1, count: 512)), run: Self.acceptedRun(text))
                stored += 1
            } catch let error as StoreError {
                failure = error
                #expect(try store.quote(matching: text) == nil)
                break
            }
        }
        let error = try #require(failure)
        #expect(error.code == .full)
        #expect(error.message.contains("full"))
        #expect(try store.count() == stored)
        #expect(try store.runs().count == stored)
        #expect(try store.withConnection { try $0.scalarInt("SELECT count(*) FROM quote_tags") } == Int64(stored * 3))
    }

    @Test func corruptFileIsReportedAndNotOverwritten() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("corrupt.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try QuoteStore.open(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func twoProcessesWritingAtOnceLoseNoRow() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("shared.sqlite")
        let perWriter = 150
        let writers = try ["left", "right"].map { try ChildProcess.crashWriter(["persist", path, $0, String(perWriter)]) }
        let outcomes = writers.map { $0.wait() }
        #expect(outcomes.allSatisfy { $0.status == 0 && !$0.signaled }, "\(outcomes.map(\.stderr))")
        let store = try QuoteStore.open(path: path)
        #expect(try store.count(source: .generated) == 2 * perWriter)
        #expect(try store.runs(limit: 10_000).count == 2 * perWriter)
    }

    @Test(arguments: [["persist", "killed", "0"], ["pipeline"]])
    func killNineDuringABatchLeavesAnIntactFileWithoutPartialRows(mode: [String]) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("killed.sqlite")
        _ = try QuoteStore.open(path: path)
        let writer = try ChildProcess.crashWriter([mode[0], path] + mode.dropFirst())
        try writer.waitFor(stdout: "started")   // a first quote is committed
        Thread.sleep(forTimeInterval: 0.4)
        writer.signal(SIGKILL)
        #expect(writer.wait().signaled)

        let store = try QuoteStore.open(path: path)
        try store.withConnection { connection in
            #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
            let generated = try connection.scalarInt("SELECT count(*) FROM quotes WHERE source = 'generated'")
            #expect(generated > 0)
            // Every generated quote has its tags and exactly one accepted run; every run that says
            // stored points at an existing quote; no accepted run lacks its quote.
            #expect(try connection.scalarInt("""
                SELECT count(*) FROM quotes q WHERE q.source = 'generated'
                AND (SELECT count(*) FROM quote_tags t WHERE t.quote_id = q.id) = 0
                """) == 0)
            #expect(try connection.scalarInt("SELECT count(*) FROM generation_runs WHERE quote_id IS NOT NULL") == generated)
            #expect(try connection.scalarInt("""
                SELECT count(*) FROM generation_runs r LEFT JOIN quotes q ON q.id = r.quote_id
                WHERE (r.branch = 'accepted' OR r.persistence = 'stored') AND q.id IS NULL
                """) == 0)
        }
    }
}

@Suite("Library access")
struct LibraryAccessTests {
    @Test func readingANewLibrarySetsItUpOnceThenStaysReadOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("new.sqlite")
        let reader = try LibraryAccess.openForReading(path: path)
        #expect(reader.isReadOnly)
        #expect(try reader.count(source: .curated) == (try CuratedCatalog.entries().count))
        #expect(try LibraryAccess.openForReading(path: path).curatedCatalogVersion() == CuratedCatalog.version)
    }

    @Test func corruptLibraryIsReportedByBothAccessModes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("bad.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect((#expect(throws: StoreError.self) { try LibraryAccess.openForReading(path: path) })?.code == .corrupt)
        #expect((#expect(throws: StoreError.self) { try LibraryAccess.openForWriting(path: path) })?.code == .corrupt)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x41, count: 4096))
    }

    /// Root ignores file permissions, so this runs only for ordinary users (CI).
    @Test(.enabled(if: getuid() != 0)) func writeProtectedFileIsReportedAsReadOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("locked.sqlite")
        _ = try QuoteStore.open(path: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let error = #expect(throws: StoreError.self) { try QuoteStore.open(path: path) }
        #expect(error?.code == .readOnly && error?.message.contains(path) == true)
    }
}
