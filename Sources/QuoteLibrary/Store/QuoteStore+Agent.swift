/// The bounded read queries behind the agent's tools. Filters are bound as parameters.
extension QuoteStore {
    public func searchCatalog(mood: String?, category: String?, theme: String?, limit: Int) throws -> [StoredQuote] {
        try withConnection { connection in
            var conditions = ["q.source = 'curated'"]
            var parameters: [SQLValue] = []
            for (kind, value) in [("mood", mood), ("category", category), ("theme", theme)] {
                guard let value else { continue }
                conditions.append("EXISTS (SELECT 1 FROM quote_tags t WHERE t.quote_id = q.id AND t.kind = ? AND t.tag = ?)")
                parameters += [.text(kind), .text(value.lowercased())]
            }
            return try Self.quotes(connection, where: conditions.joined(separator: " AND "), parameters, limit: limit)
        }
    }

    /// Saved or favourite quotes, optionally containing `text` (matched literally, not as a pattern).
    public func searchSaved(containing text: String?, mark: Mark?, limit: Int) throws -> [StoredQuote] {
        try withConnection { connection in
            var conditions = ["EXISTS (SELECT 1 FROM quote_marks m WHERE m.quote_id = q.id"
                              + (mark == nil ? ")" : " AND m.kind = ?)")]
            var parameters: [SQLValue] = mark.map { [.text($0.rawValue)] } ?? []
            if let text, !text.isEmpty {
                conditions.append("instr(lower(q.text), lower(?)) > 0")
                parameters.append(.text(text))
            }
            return try Self.quotes(connection, where: conditions.joined(separator: " AND "), parameters,
                                   orderBy: "q.id DESC", limit: limit)
        }
    }

    public func streak(asOf today: CalendarDay) throws -> StreakStatus {
        let days = try withConnection { connection in
            try connection.query("SELECT day FROM activity_log ORDER BY day DESC LIMIT 4000") { $0.text(0) }
        }.compactMap { try? CalendarDay($0) }.filter { $0 <= today }
        let active = Set(days)
        var current = 0
        var day = active.contains(today) ? today : today.previous
        while active.contains(day) { current += 1; day = day.previous }
        var longest = 0, run = 0
        var previous: CalendarDay?
        for day in days.reversed() {
            run = (previous.map { $0 == day.previous } ?? false) ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        return StreakStatus(current: current, longest: longest, activeToday: active.contains(today),
                            lastActiveDay: days.first?.description)
    }
}

/// Listing and searching for the `quote list|search` commands (bounded, parameterised).
extension QuoteStore {
    public static let maximumListLimit = 200

    /// Newest first, optionally only one source or locale.
    public func list(source: QuoteSource? = nil, locale: String? = nil, limit: Int = 20) throws -> [StoredQuote] {
        try withConnection { connection in
            var conditions = ["1 = 1"]
            var parameters: [SQLValue] = []
            if let source { conditions.append("q.source = ?"); parameters.append(.text(source.rawValue)) }
            if let locale { conditions.append("q.locale = ?"); parameters.append(.text(SupportedLocale.language(of: locale))) }
            return try Self.quotes(connection, where: conditions.joined(separator: " AND "), parameters, orderBy: "q.id DESC",
                                   limit: min(max(1, limit), Self.maximumListLimit))
        }
    }

    /// Quotes whose text or author contains `text` (case-insensitive, literal), newest first.
    public func search(_ text: String, limit: Int = 20) throws -> [StoredQuote] {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StoreError(.invalidArgument, "search text is empty")
        }
        return try withConnection { connection in
            try Self.quotes(connection, where: "instr(lower(q.text), lower(?)) > 0 OR instr(lower(coalesce(q.author, '')), lower(?)) > 0",
                            [.text(text), .text(text)], orderBy: "q.id DESC", limit: min(max(1, limit), Self.maximumListLimit))
        }
    }
}
