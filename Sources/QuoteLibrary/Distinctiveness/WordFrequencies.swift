import Foundation

/// How common each word of a language is, from wordfreq 3.1.1's "large" lists (fetched and
/// converted at set-up by `scripts/fetch-word-frequencies.sh`; see `scripts/word-frequencies.py`
/// for the file format). Words are folded as `QuoteText.normalizedKey` folds them.
///
/// Values are Zipf frequencies: log10 of occurrences per billion words ("the" 7.7, "window" 4.8,
/// "mailbox" 3.3). The lists end at Zipf 1; words they leave out (rarer names, long compounds,
/// typos, made-up words) read as 0.
///
/// A language's table is read on first use and kept; a missing or malformed file is a
/// `WordFrequencyError` naming the file.
public final class WordFrequencies: @unchecked Sendable {
    /// The folder holding `<language>.txt` per language.
    public let directory: String
    private let lock = NSLock()
    private var tables: [String: [String: Double]] = [:]
    private var sortedTables: [String: [String]] = [:]

    public init(directory: String) {
        self.directory = directory
    }

    public func file(for language: String) -> String {
        (directory as NSString).appendingPathComponent("\(language).txt")
    }

    /// The table of `language`, read from its file the first time.
    public func table(for language: String) throws(WordFrequencyError) -> [String: Double] {
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[language] { return table }
        let table = try Self.read(file(for: language), language: language)
        tables[language] = table
        return table
    }

    /// The words of `language`'s table in ascending order, for finding the words that start with a
    /// given stem (`RealWords`); sorted on first use (most drafts never need it).
    public func sortedWords(for language: String) throws(WordFrequencyError) -> [String] {
        let table = try table(for: language)
        lock.lock()
        defer { lock.unlock() }
        if let sorted = sortedTables[language] { return sorted }
        let sorted = table.keys.sorted()
        sortedTables[language] = sorted
        return sorted
    }

    /// Reads every language now, so a missing file fails the command before any work.
    public func preload(_ languages: some Sequence<String>) throws(WordFrequencyError) {
        for language in languages { _ = try table(for: language) }
    }

    static func read(_ path: String, language: String) throws(WordFrequencyError) -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WordFrequencyError(file: path, FileManager.default.fileExists(atPath: path)
                ? "cannot be read" : "no such file (run `make word-frequencies`)")
        }
        // Parsed on the bytes: the tables are 0.7–1.8 MB and are read on every command that scores.
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        let headerEnd = data.firstIndex(of: newline) ?? data.endIndex
        let expected = "wordfreq-zipf 1 \(language) "
        guard String(decoding: data[data.startIndex..<headerEnd], as: UTF8.self).hasPrefix(expected) else {
            throw WordFrequencyError(file: path, "line 1: expected a header starting \"\(expected)\"")
        }
        var table: [String: Double] = [:]
        table.reserveCapacity(data.count / 9)
        var malformedLine: Int?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var position = headerEnd - data.startIndex + 1
            var number = 1
            while position < bytes.count {
                number += 1
                var end = position
                while end < bytes.count, bytes[end] != newline { end += 1 }
                defer { position = end + 1 }
                if end == position { continue }
                // "<zipf × 100> <word> <word> …"
                var cursor = position, centi = 0
                while cursor < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]), centi <= 900 {
                    centi = centi * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                }
                guard cursor > position, cursor < end, bytes[cursor] == space, centi <= 900 else {
                    malformedLine = number
                    return
                }
                let zipf = Double(centi) / 100
                while cursor < end {
                    cursor += 1
                    let start = cursor
                    while cursor < end, bytes[cursor] != space { cursor += 1 }
                    if cursor > start {
                        table[String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)] = zipf
                    }
                }
            }
        }
        if let malformedLine {
            throw WordFrequencyError(file: path, "line \(malformedLine): expected \"<zipf × 100> <word> …\"")
        }
        guard !table.isEmpty else { throw WordFrequencyError(file: path, "has no words") }
        return table
    }
}

public struct WordFrequencyError: Error, CustomStringConvertible, Equatable, Sendable {
    public let file: String
    public let problem: String

    init(file: String, _ problem: String) {
        (self.file, self.problem) = (file, problem)
    }

    public var description: String { "word frequencies \(file): \(problem)" }
}
