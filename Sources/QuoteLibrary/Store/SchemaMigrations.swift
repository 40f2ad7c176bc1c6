import Foundation

/// The schema as an ordered list of forward-only migrations. `PRAGMA user_version` holds the
/// version reached; `schema_history` records when each step ran. A migration is never edited
/// once shipped: a change is a new step at the end.
enum SchemaMigrations {
    static let steps: [String] = [
        // 1: quotes, their tags, saved/favourite marks, the daily activity log.
        """
        CREATE TABLE schema_history (
            version INTEGER PRIMARY KEY,
            applied_at TEXT NOT NULL
        );
        CREATE TABLE quotes (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL CHECK (length(text) > 0),
            normalized_text TEXT NOT NULL UNIQUE CHECK (length(normalized_text) > 0),
            author TEXT,
            source TEXT NOT NULL CHECK (source IN ('curated', 'generated')),
            is_public_domain INTEGER NOT NULL CHECK (is_public_domain IN (0, 1)),
            locale TEXT NOT NULL,
            word_count INTEGER NOT NULL,
            score_quality REAL,
            score_originality REAL,
            score_warmth REAL,
            score_overall REAL,
            judge_source TEXT,
            distinctiveness REAL,
            model_version TEXT,
            created_at TEXT NOT NULL,
            embedding BLOB,
            embedding_model TEXT,
            -- generated lines are never attributed and never claimed as public domain
            CHECK (source = 'curated' OR (author IS NULL AND is_public_domain = 0)),
            CHECK (source = 'generated' OR (author IS NOT NULL AND is_public_domain = 1))
        );
        CREATE INDEX quotes_by_source_locale ON quotes (source, locale);
        CREATE TABLE quote_tags (
            quote_id INTEGER NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('mood', 'category', 'theme')),
            tag TEXT NOT NULL,
            PRIMARY KEY (quote_id, kind, tag)
        );
        CREATE INDEX quote_tags_by_tag ON quote_tags (kind, tag);
        CREATE TABLE quote_marks (
            quote_id INTEGER NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('saved', 'favorite')),
            marked_at TEXT NOT NULL,
            PRIMARY KEY (quote_id, kind)
        );
        CREATE TABLE activity_log (
            day TEXT PRIMARY KEY CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            events INTEGER NOT NULL DEFAULT 1
        );
        """,
        // 2: generation runs (every attempt, whatever its end) and store metadata.
        """
        CREATE TABLE generation_runs (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            locale TEXT NOT NULL,
            budget TEXT NOT NULL,
            primary_availability TEXT NOT NULL,
            secondary_availability TEXT NOT NULL,
            judge_availability TEXT NOT NULL,
            embedder_availability TEXT NOT NULL,
            model_version TEXT,
            elapsed_ms INTEGER NOT NULL,
            branch TEXT NOT NULL CHECK (branch IN
                ('accepted', 'rejected', 'timeout', 'unavailable', 'refused', 'storageFailed')),
            gate TEXT,
            reason TEXT,
            novelty_proven INTEGER NOT NULL,
            judge_source TEXT,
            draft_text TEXT,
            persistence TEXT NOT NULL,
            quote_id INTEGER REFERENCES quotes (id)
        );
        CREATE INDEX generation_runs_by_branch ON generation_runs (branch, gate);
        CREATE TABLE store_meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
        // 3: per run, the side that wrote the draft, the escalation that sent it to the
        // secondary, and the time of each stage (NULL: the stage was not reached, or the run
        // predates this step).
        """
        ALTER TABLE generation_runs ADD COLUMN served_by TEXT CHECK (served_by IN ('primary', 'secondary'));
        ALTER TABLE generation_runs ADD COLUMN escalation_gate TEXT;
        ALTER TABLE generation_runs ADD COLUMN escalated_from_model_version TEXT;
        ALTER TABLE generation_runs ADD COLUMN readiness_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN draft_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN gates_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN novelty_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN judge_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN distinctiveness_ms INTEGER;
        ALTER TABLE generation_runs ADD COLUMN persist_ms INTEGER;
        """,
        // 4: quotes a person adds (source 'user': never public domain, author optional), and
        // embeddings in their own table keyed by (model, quote), so vectors of several models
        // live side by side and a model change never overwrites another's. SQLite cannot alter
        // a CHECK, so quotes is rebuilt (foreign keys are off while steps run; see `migrate`).
        """
        CREATE TABLE quotes_v4 (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL CHECK (length(text) > 0),
            normalized_text TEXT NOT NULL UNIQUE CHECK (length(normalized_text) > 0),
            author TEXT CHECK (author IS NULL OR length(author) > 0),
            source TEXT NOT NULL CHECK (source IN ('curated', 'generated', 'user')),
            is_public_domain INTEGER NOT NULL CHECK (is_public_domain IN (0, 1)),
            locale TEXT NOT NULL,
            word_count INTEGER NOT NULL,
            score_quality REAL,
            score_originality REAL,
            score_warmth REAL,
            score_overall REAL,
            judge_source TEXT,
            distinctiveness REAL,
            model_version TEXT,
            created_at TEXT NOT NULL,
            -- generated lines are never attributed; only the curated catalog is public domain
            CHECK (source <> 'generated' OR (author IS NULL AND is_public_domain = 0)),
            CHECK (source <> 'curated' OR (author IS NOT NULL AND is_public_domain = 1)),
            CHECK (source <> 'user' OR is_public_domain = 0)
        );
        INSERT INTO quotes_v4 (id, text, normalized_text, author, source, is_public_domain, locale, word_count,
                               score_quality, score_originality, score_warmth, score_overall, judge_source,
                               distinctiveness, model_version, created_at)
            SELECT id, text, normalized_text, author, source, is_public_domain, locale, word_count,
                   score_quality, score_originality, score_warmth, score_overall, judge_source,
                   distinctiveness, model_version, created_at FROM quotes;
        CREATE TABLE quote_embeddings (
            model TEXT NOT NULL CHECK (length(model) > 0),
            quote_id INTEGER NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
            dimensions INTEGER NOT NULL CHECK (dimensions > 0),
            -- little-endian float32, dimensions of them
            vector BLOB NOT NULL CHECK (length(vector) = 4 * dimensions),
            PRIMARY KEY (model, quote_id)
        ) WITHOUT ROWID;
        INSERT INTO quote_embeddings (model, quote_id, dimensions, vector)
            SELECT embedding_model, id, length(embedding) / 4, embedding FROM quotes
            WHERE embedding_model IS NOT NULL AND length(embedding_model) > 0
              AND length(embedding) > 0 AND length(embedding) % 4 = 0;
        DROP TABLE quotes;
        ALTER TABLE quotes_v4 RENAME TO quotes;
        CREATE INDEX quotes_by_source_locale ON quotes (source, locale);
        """,
        // 5: what the taste model said of each run's draft, or why it was skipped.
        """
        ALTER TABLE generation_runs ADD COLUMN taste TEXT;
        """,
        // 6: each quote's per-token encoder states, per embedding model (`TokenStatesBlob`),
        // stored with its vector, so the paraphrase step's token alignment reads them instead of
        // running the encoder on every compared quote (Sources/QuoteLibrary/README.md, "Novelty").
        """
        CREATE TABLE quote_token_states (
            model TEXT NOT NULL CHECK (length(model) > 0),
            quote_id INTEGER NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
            tokens INTEGER NOT NULL CHECK (tokens >= 0),
            dimensions INTEGER NOT NULL CHECK (dimensions > 0),
            -- little-endian int32 token ids
            ids BLOB NOT NULL CHECK (length(ids) = 4 * tokens),
            -- per token: its float32 scale, then one int8 a dimension
            states BLOB NOT NULL CHECK (length(states) = tokens * (4 + dimensions)),
            UNIQUE (model, quote_id)
        );
        -- rows of ~10 KB: a rowid table keeps them off the key's pages, and this index answers
        -- "how many, which are missing" without reading a blob
        CREATE INDEX quote_token_states_by_width ON quote_token_states (model, dimensions, quote_id);
        """,
        // 7: what the register model said of each run's draft, or why it was skipped.
        """
        ALTER TABLE generation_runs ADD COLUMN register TEXT;
        """,
    ]

    static var latestVersion: Int { steps.count }

    /// Brings the database forward to `target` (default: the latest). Each step runs in its own
    /// immediate transaction that re-reads the version, so two processes opening a new file at
    /// once apply each step exactly once.
    /// Foreign keys are off while steps run (SQLite ignores the pragma inside a transaction, and a
    /// table rebuild must not cascade its DROP into tags and marks); each step ends with a
    /// foreign-key check, so a step that breaks a reference rolls back.
    static func migrate(_ connection: SQLiteConnection, upTo target: Int = latestVersion) throws {
        let current = try Int(connection.scalarInt("PRAGMA user_version"))
        if current > latestVersion {
            throw StoreError(.schemaTooNew, "database \(connection.path) has schema version \(current); "
                + "this build knows versions up to \(latestVersion) and never downgrades")
        }
        guard current < target else { return }
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        for version in (current + 1)...target {
            try connection.transaction {
                let seen = try Int(connection.scalarInt("PRAGMA user_version"))
                guard seen < version else { return }
                try connection.execute(steps[version - 1])
                let broken = try connection.query("PRAGMA foreign_key_check") { $0.text(0) }
                guard broken.isEmpty else {
                    throw StoreError(.constraint, "database \(connection.path): schema step \(version) would leave "
                                     + "\(broken.count) broken references (in \(Set(broken).sorted().joined(separator: ", ")))")
                }
                try connection.run("INSERT INTO schema_history (version, applied_at) VALUES (?, ?)",
                                   [.integer(Int64(version)), .text(Timestamp.now())])
                // user_version takes no bound parameters; `version` is our own integer.
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
        // A rebuilt table leaves its old pages free; give them back, so the file holds only
        // what it stores (the page limit an operator sets then means what it says).
        if try connection.scalarInt("PRAGMA freelist_count") > 0 { try connection.execute("VACUUM") }
    }

    /// A read-only connection cannot migrate: it reads a schema this build knows, the latest or an
    /// older one. Version 0 is a file no writer has set up yet.
    static func requireReadable(_ connection: SQLiteConnection) throws {
        let current = try Int(connection.scalarInt("PRAGMA user_version"))
        guard (1...latestVersion).contains(current) else {
            throw StoreError(current > latestVersion ? .schemaTooNew : .invalidArgument,
                             "database \(connection.path) has schema version \(current), expected 1...\(latestVersion); "
                             + (current > latestVersion ? "this build never downgrades" : "open it read-write once to set it up"))
        }
    }
}
