import Foundation

/// The quote library on disk: one SQLite file holding quotes, tags, marks, the activity log and
/// the generation runs. Open read-write (migrates forward, WAL, busy timeout) or read-only
/// (SQLITE_OPEN_READONLY + `PRAGMA query_only`, for the agent tools and the today view).
/// Calls are serialised on an internal lock; each write is one transaction.
public final class QuoteStore: @unchecked Sendable {
    public let path: String
    public let isReadOnly: Bool
    private let connection: SQLiteConnection
    private let lock = NSLock()
    /// The last embedding matrix loaded, and the database state it was loaded at (see
    /// `QuoteStore+Embeddings`); guarded by `lock`.
    var cachedMatrix: (stamp: ChangeStamp, matrix: EmbeddingMatrix)?

    private init(connection: SQLiteConnection, readOnly: Bool) {
        self.connection = connection
        self.path = connection.path
        self.isReadOnly = readOnly
    }

    /// Opens (creating if needed) and migrates. `maximumPageCount` caps the file size in pages
    /// (an operator limit; tests use it to simulate a full disk).
    public static func open(path: String, maximumPageCount: Int? = nil) throws -> QuoteStore {
        let connection = try openMigrated(path: path)
        if let maximumPageCount {
            guard maximumPageCount > 0 else {
                throw StoreError(.invalidArgument, "maximumPageCount must be positive, got \(maximumPageCount)")
            }
            _ = try connection.scalarInt("PRAGMA max_page_count = \(maximumPageCount)")
        }
        return QuoteStore(connection: connection, readOnly: false)
    }

    /// Two processes creating the same file at once can get SQLITE_BUSY from SQLite without its
    /// busy handler being consulted (switching a new file to WAL, or recovering its WAL index),
    /// so the set-up is retried, with the same patience as the busy timeout.
    private static func openMigrated(path: String) throws -> SQLiteConnection {
        let deadline = ContinuousClock.now + .milliseconds(Int(SQLiteConnection.busyTimeoutMilliseconds))
        while true {
            do {
                let connection = try SQLiteConnection(path: path, mode: .readWrite)
                try SchemaMigrations.migrate(connection)
                return connection
            } catch let error as StoreError where error.code == .busy && ContinuousClock.now < deadline {
                usleep(useconds_t.random(in: 5_000...25_000))
            }
        }
    }

    /// Opens an existing library for reading only, at this build's schema or an older one
    /// (a reader cannot migrate; every query a reader makes works on any shipped schema).
    public static func openReadOnly(path: String) throws -> QuoteStore {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        try SchemaMigrations.requireReadable(connection)
        return QuoteStore(connection: connection, readOnly: true)
    }

    /// A library in memory holding only `entries` (the bundled catalog), made read-only once
    /// filled: what readers see when no library file exists, without creating one.
    public static func inMemory(curated entries: [CuratedEntry], catalogVersion: String) throws -> QuoteStore {
        let connection = try SQLiteConnection(path: ":memory:", mode: .memory)
        try SchemaMigrations.migrate(connection)
        let filling = QuoteStore(connection: connection, readOnly: false)
        try filling.importCurated(entries, catalogVersion: catalogVersion)
        try connection.execute("PRAGMA query_only = ON")
        return QuoteStore(connection: connection, readOnly: true)
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    // MARK: Reading

    public var schemaVersion: Int { get throws { try withConnection { Int(try $0.scalarInt("PRAGMA user_version")) } } }

    public func count(source: QuoteSource? = nil) throws -> Int {
        try withConnection { connection in
            if let source {
                return Int(try connection.scalarInt("SELECT count(*) FROM quotes WHERE source = ?", [.text(source.rawValue)]))
            }
            return Int(try connection.scalarInt("SELECT count(*) FROM quotes"))
        }
    }

    public func quote(id: Int64) throws -> StoredQuote? {
        try withConnection { try Self.quotes($0, where: "q.id = ?", [.integer(id)], limit: 1).first }
    }

    public func quote(matching text: String) throws -> StoredQuote? {
        try withConnection {
            try Self.quotes($0, where: "q.normalized_text = ?", [.text(QuoteText.normalizedKey(text))], limit: 1).first
        }
    }

    /// The quote of the day (`TodayPick`) among stored rows. Reads only; never generates.
    public func today(locale: String, day: CalendarDay) throws -> StoredQuote? {
        try withConnection { connection in
            for candidate in TodayPick.locales(for: locale) {
                let total = try connection.scalarInt("SELECT count(*) FROM quotes WHERE locale = ?", [.text(candidate)])
                guard total > 0 else { continue }
                return try Self.quotes(connection, where: "q.locale = ?", [.text(candidate)],
                                       orderBy: "q.id", limit: 1, offset: Int64(TodayPick.offset(of: day, among: Int(total)))).first
            }
            return nil
        }
    }

    public func runs(limit: Int = 1000) throws -> [GenerationRun] {
        try withConnection { connection in
            try connection.query(GenerationRunRow.selectSQL + " ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))],
                                 GenerationRunRow.decode)
        }
    }

    // MARK: Writing

    /// Inserts curated catalog quotes in one transaction, skipping texts already stored.
    /// Returns how many rows were added.
    @discardableResult
    public func importCurated(_ entries: [CuratedEntry], catalogVersion: String) throws -> Int {
        try withConnection { connection in
            try connection.transaction {
                var added = 0
                for entry in entries {
                    let key = QuoteText.normalizedKey(entry.text)
                    if try connection.scalarInt("SELECT count(*) FROM quotes WHERE normalized_text = ?", [.text(key)]) > 0 {
                        continue
                    }
                    try connection.run("""
                        INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale,
                                            word_count, created_at)
                        VALUES (?, ?, ?, 'curated', 1, ?, ?, ?)
                        """, [.text(entry.text), .text(key), .text(entry.author), .text(entry.locale),
                              .integer(Int64(QuoteText.words(entry.text).count)), .text(Timestamp.now())])
                    try Self.insertTags(connection, quoteID: connection.lastInsertRowID, tags: entry.tags)
                    added += 1
                }
                try connection.run("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('curated_catalog_version', ?)",
                                   [.text(catalogVersion)])
                return added
            }
        }
    }

    public func curatedCatalogVersion() throws -> String? {
        try withConnection {
            try $0.query("SELECT value FROM store_meta WHERE key = 'curated_catalog_version'") { $0.text(0) }.first
        }
    }

    /// Persists an accepted quote and its run record in one transaction
    /// (Sources/QuoteLibrary/README.md, "The pipeline", step 7). On any failure nothing of either
    /// is left behind and the error says why. `completing` finishes the run record (its last
    /// timings) just before it is written.
    public func persist(_ quote: GeneratedQuote, run: GenerationRun,
                        completing: (inout GenerationRun) -> Void = { _ in }) throws -> Int64 {
        try withConnection { connection in
            try connection.transaction {
                let key = QuoteText.normalizedKey(quote.text)
                guard !key.isEmpty else { throw StoreError(.invalidArgument, "refusing to store an empty quote") }
                do {
                    try connection.run("""
                        INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale, word_count,
                                            score_quality, score_originality, score_warmth, score_overall, judge_source,
                                            distinctiveness, model_version, created_at)
                        VALUES (?, ?, NULL, 'generated', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(quote.text), .text(key), .text(quote.locale), .integer(Int64(quote.wordCount)),
                              .real(quote.scores.judge.quality), .real(quote.scores.judge.originality),
                              .real(quote.scores.judge.warmth), .real(quote.scores.judge.overall),
                              .text(quote.scores.judgeSource), .real(quote.scores.distinctiveness),
                              .text(quote.modelVersion), .text(Timestamp.now())])
                } catch let error as StoreError where error.code == .constraint {
                    throw StoreError(.constraint, "\(path): the same text (after normalising case, accents and "
                                     + "punctuation) is already stored")
                }
                let id = connection.lastInsertRowID
                if let proof = quote.novelty {
                    try Self.requireNoNewNearCopy(connection, proof: proof, path: path)
                    try Self.insertProof(connection, quoteID: id, proof: proof)
                }
                try Self.insertTags(connection, quoteID: id, tags: quote.tags)
                var stored = run
                stored.persistence = .stored
                stored.quoteID = id
                completing(&stored)
                try GenerationRunRow.insert(stored, into: connection)
                return id
            }
        }
    }

    /// Records a run that stored nothing (rejected, timeout, unavailable, refused, storage failed).
    public func record(_ run: GenerationRun) throws {
        try withConnection { connection in
            try connection.transaction { try GenerationRunRow.insert(run, into: connection) }
        }
    }

    public enum Mark: String, Sendable, CaseIterable { case saved, favorite }

    public func mark(quoteID: Int64, as mark: Mark) throws {
        try withConnection { connection in
            try connection.transaction {
                guard try connection.scalarInt("SELECT count(*) FROM quotes WHERE id = ?", [.integer(quoteID)]) == 1 else {
                    throw StoreError(.invalidArgument, "no quote with id \(quoteID) in \(path)")
                }
                try connection.run("INSERT OR IGNORE INTO quote_marks (quote_id, kind, marked_at) VALUES (?, ?, ?)",
                                   [.integer(quoteID), .text(mark.rawValue), .text(Timestamp.now())])
            }
        }
    }

    /// Counts one activity event (viewing, saving, generating) on `day`, for the streak.
    public func recordActivity(on day: CalendarDay) throws {
        try withConnection { connection in
            try connection.transaction {
                try connection.run("INSERT INTO activity_log (day, events) VALUES (?, 1) "
                                   + "ON CONFLICT (day) DO UPDATE SET events = events + 1", [.text(day.description)])
            }
        }
    }

    // MARK: Row mapping shared by the readers

    static let quoteColumns = """
        q.id, q.text, q.author, q.source, q.is_public_domain, q.locale, q.word_count, q.score_quality,
        q.score_originality, q.score_warmth, q.score_overall, q.judge_source, q.distinctiveness, q.model_version,
        q.created_at, (SELECT group_concat(kind || ':' || tag, char(10)) FROM quote_tags t WHERE t.quote_id = q.id)
        """

    /// `condition` is always a fixed string written in this module; values go in `parameters`.
    static func quotes(_ connection: SQLiteConnection, where condition: String, _ parameters: [SQLValue],
                       orderBy: String = "q.id", limit: Int, offset: Int64 = 0) throws -> [StoredQuote] {
        try connection.query("SELECT \(quoteColumns) FROM quotes q WHERE \(condition) ORDER BY \(orderBy) LIMIT ? OFFSET ?",
                             parameters + [.integer(Int64(limit)), .integer(offset)], decodeQuote)
    }

    static func decodeQuote(_ row: SQLiteRow) -> StoredQuote {
        var tags = QuoteTags()
        for line in (row.optionalText(15) ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "mood": tags.moods.append(parts[1])
            case "category": tags.categories.append(parts[1])
            default: tags.themes.append(parts[1])
            }
        }
        let scores: QuoteScores? = row.isNull(10) ? nil : QuoteScores(
            judge: JudgeScores(quality: row.double(7), originality: row.double(8), warmth: row.double(9),
                               overall: row.double(10)),
            judgeSource: row.optionalText(11) ?? "", distinctiveness: row.optionalDouble(12) ?? 0)
        return StoredQuote(id: row.int(0), text: row.text(1), author: row.optionalText(2),
                           source: QuoteSource(rawValue: row.text(3)) ?? .generated, isPublicDomain: row.int(4) == 1,
                           locale: row.text(5), tags: tags, wordCount: Int(row.int(6)), scores: scores,
                           modelVersion: row.optionalText(13), createdAt: row.text(14))
    }

    static func insertTags(_ connection: SQLiteConnection, quoteID: Int64, tags: QuoteTags) throws {
        for (kind, tag) in tags.rows {
            try connection.run("INSERT OR IGNORE INTO quote_tags (quote_id, kind, tag) VALUES (?, ?, ?)",
                               [.integer(quoteID), .text(kind), .text(tag.lowercased())])
        }
    }
}
