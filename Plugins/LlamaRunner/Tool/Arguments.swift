/// A bad command line, named precisely.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// The command-line arguments after the subcommand, consumed as options and positionals are read.
struct Arguments {
    private var items: [String]

    init(_ items: [String]) { self.items = items }

    /// Removes `--name` when present.
    mutating func flag(_ names: String...) -> Bool {
        guard let i = items.firstIndex(where: { names.contains($0) }) else { return false }
        items.remove(at: i)
        return true
    }

    /// Removes `--name VALUE` and returns VALUE when present.
    mutating func option(_ names: String...) throws -> String? {
        guard let i = items.firstIndex(where: { names.contains($0) }) else { return nil }
        guard i + 1 < items.count else { throw UsageError(description: "\(items[i]) needs a value") }
        let value = items[i + 1]
        items.removeSubrange(i...i + 1)
        return value
    }

    mutating func intOption(_ names: String..., default value: Int) throws -> Int {
        guard let i = items.firstIndex(where: { names.contains($0) }) else { return value }
        guard i + 1 < items.count, let v = Int(items[i + 1]) else { throw UsageError(description: "\(items[i]) needs an integer") }
        items.removeSubrange(i...i + 1)
        return v
    }

    mutating func doubleOption(_ name: String) throws -> Double? {
        guard let s = try option(name) else { return nil }
        guard let v = Double(s) else { throw UsageError(description: "\(name) needs a number, got \(s)") }
        return v
    }

    /// Comma- or space-separated token ids, e.g. `1,9690,198`.
    mutating func idsOption(_ name: String) throws -> [Int32]? {
        guard let s = try option(name) else { return nil }
        let parts = s.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "[" || $0 == "]" })
        return try parts.map { p in
            guard let id = Int32(p) else { throw UsageError(description: "\(name): \"\(p)\" is not a token id") }
            return id
        }
    }

    mutating func positional(_ what: String) throws -> String {
        guard let i = items.firstIndex(where: { !$0.hasPrefix("-") }) else { throw UsageError(description: "missing \(what)") }
        return items.remove(at: i)
    }

    /// Fails on anything left over, so a misspelt option is never silently ignored.
    func finish() throws {
        if let extra = items.first { throw UsageError(description: "unexpected argument \(extra)") }
    }
}
