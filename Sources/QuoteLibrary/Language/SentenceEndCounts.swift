import Foundation

/// How often each word occurs and how often it ends a sentence, per language, counted over real
/// sentences written by people (the GNOME help, the Debian Administrator's Handbook and the
/// fortune files, fetched and counted at set-up by `scripts/fetch-sentence-ends.sh`; the rules and
/// the file format are in `scripts/sentence-ends.py`). The gate's dangling-word check reads it
/// (`DanglingWords`). Keys are lower case with accents kept; a joined word is counted by its last
/// part with the joiner in front ("'s", "-le").
///
/// Read on first use and kept; a missing or malformed file is a `SentenceEndCountsError` naming
/// the file.
public final class SentenceEndCounts: @unchecked Sendable {
    public struct Count: Equatable, Sendable {
        public let occurrences: Int
        public let finals: Int
    }

    /// Where `make sentence-ends` writes the table: beside the word-frequency tables.
    public static func file(inWordFrequencies directory: String) -> String {
        (directory as NSString).appendingPathComponent("sentence-ends.txt")
    }

    public let file: String
    private let lock = NSLock()
    private var tables: [String: [String: Count]]?

    public init(file: String) {
        self.file = file
    }

    /// The counts of `language`; a language the file lacks is an error, not an empty table.
    public func table(for language: String) throws(SentenceEndCountsError) -> [String: Count] {
        lock.lock()
        defer { lock.unlock() }
        if tables == nil { tables = try Self.read(file) }
        guard let table = tables?[language] else {
            throw SentenceEndCountsError(file: file, "has no counts for \(language)")
        }
        return table
    }

    static func read(_ path: String) throws(SentenceEndCountsError) -> [String: [String: Count]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SentenceEndCountsError(file: path, FileManager.default.fileExists(atPath: path)
                ? "cannot be read" : "no such file (run `make sentence-ends`)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first?.hasPrefix("sentence-ends 1 ") == true else {
            throw SentenceEndCountsError(file: path, "line 1: expected a header starting \"sentence-ends 1 \"")
        }
        var tables: [String: [String: Count]] = [:]
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 4, !fields[0].isEmpty, !fields[1].isEmpty,
                  let occurrences = Int(fields[2]), let finals = Int(fields[3]), occurrences > 0, (0...occurrences).contains(finals) else {
                throw SentenceEndCountsError(file: path, "line \(index + 1): expected \"<language> <word> <occurrences> <finals>\""
                                             + " with 0 ≤ finals ≤ occurrences")
            }
            tables[String(fields[0]), default: [:]][String(fields[1])] = Count(occurrences: occurrences, finals: finals)
        }
        guard !tables.isEmpty else { throw SentenceEndCountsError(file: path, "has no counts") }
        return tables
    }
}

public struct SentenceEndCountsError: Error, CustomStringConvertible, Equatable, Sendable {
    public let file: String
    public let problem: String

    init(file: String, _ problem: String) {
        (self.file, self.problem) = (file, problem)
    }

    public var description: String { "sentence-end counts \(file): \(problem)" }
}
