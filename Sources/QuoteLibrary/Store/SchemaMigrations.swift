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
    ]

    static var latestVersion: Int { steps.count }

    /// Brings the database forward to `target` (default: the latest). Each step runs in its own
    /// immediate transaction that re-reads the version, so two processes opening a new file at
    /// once apply each step exactly once.
    static func migrate(_ connection: SQLiteConnection, upTo target: Int = latestVersion) throws {
        let current = try Int(connection.scalarInt("PRAGMA user_version"))
        if current > latestVersion {
            throw StoreError(.schemaTooNew, "database \(connection.path) has schema version \(current); "
                + "this build knows versions up to \(latestVersion) and never downgrades")
        }
        guard current < target else { return }
        for version in (current + 1)...target {
            try connection.transaction {
                let seen = try Int(connection.scalarInt("PRAGMA user_version"))
                guard seen < version else { return }
                try connection.execute(steps[version - 1])
                try connection.run("INSERT INTO schema_history (version, applied_at) VALUES (?, ?)",
                                   [.integer(Int64(version)), .text(Timestamp.now())])
                // user_version takes no bound parameters; `version` is our own integer.
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
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
