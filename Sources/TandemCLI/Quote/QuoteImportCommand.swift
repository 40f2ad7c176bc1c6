import Foundation
import JSONModel
import QuoteLibrary
import Tandem

/// `tandem quote import FILE.jsonl`: adds many quotes of the user's, one JSON object a line
/// (`{"text": …, "locale": …, "author": …}`). Every line is checked before anything is stored,
/// then all are stored in one transaction: the file goes in whole or not at all.
enum QuoteImportCommand: Command {
    static let name = "quote import"
    static let summary = "add the quotes of a JSON Lines file to the library (all or none)"
    static let arguments = "FILE.jsonl [--skip-duplicates] [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .flag("skip-duplicates", "store the other lines when some duplicate a stored quote or an earlier line"),
        .flag("json", #"print {"imported", "ids", "skipped": [{"line", "reason"}]}"#),
    ]
    static let discussion = """
        Each non-blank line is an object with "text" and "locale" (en, de, es, fr, it, pt), and
        optionally "author" (a string, or null for none); other keys are errors. Quotes are stored
        with source "user", never as public domain.
        First every line is validated (errors name FILE:LINE); then each is compared with the
        library and with the lines before it, as quote add does (exact or normalised copies
        before any embedding, then near-duplicates at the embedding model's threshold). Any
        problem stores nothing, unless --skip-duplicates lets duplicates be left out.
        Exit status: 0 when stored, 1 when duplicates stopped the import, 2 for a bad file or line.
        """

    /// At most this many problems are listed (the count says how many there were).
    static let shownProblems = 20

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let path = arguments.positionals.first else { throw UsageError(name, "no file given (FILE.jsonl)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(name, "\(path): cannot be read (missing, a folder, or not readable)")
        }
        guard let content = String(data: data, encoding: .utf8) else { throw UsageError(name, "\(path): not UTF-8 text") }
        let lines = try parse(content, path: path)

        let config = try context.config()
        let embedder = try await context.noveltyEmbedder(config)
        let store = try context.writeLibrary(config)
        try await LibraryEmbeddingProgress.prepare(store: store, embedder: embedder)
        let gate = NoveltyGate()
        var accepted: [(line: Int, input: UserQuoteInput, proof: NoveltyProof?)] = []
        var earlier: [String: Int] = [:]               // normalised text → line
        var earlierVectors: EmbeddingMatrix?           // accepted lines' vectors, row id = line number
        var duplicates: [(line: Int, reason: String)] = []
        for (number, input) in lines {
            let key = QuoteText.normalizedKey(input.text)
            if let first = earlier[key] {
                duplicates.append((number, "copy of line \(first) (the same text once case, accents and punctuation are folded)"))
                continue
            }
            let verdict = try await gate.evaluate(input.text, locale: input.locale, embedder: embedder, store: store)
            guard verdict.result.passed else {
                duplicates.append((number, verdict.result.reason ?? "rejected by novelty"))
                continue
            }
            if let proof = verdict.proof {
                var matrix = earlierVectors ?? EmbeddingMatrix(model: proof.model, dimensions: proof.vector.count)
                if let match = matrix.nearest(to: proof.vector), match.similarity >= proof.threshold {
                    duplicates.append((number, "near-duplicate of line \(match.id) (cosine "
                                       + "\(String(format: "%.3f", match.similarity)) ≥ \(proof.threshold))"))
                    continue
                }
                matrix.append(id: Int64(number), vector: proof.vector)
                earlierVectors = matrix
            }
            earlier[key] = number
            accepted.append((number, input, verdict.proof))
        }
        let json = arguments.flag("json")
        if !duplicates.isEmpty, !arguments.flag("skip-duplicates") {
            report(duplicates.map { "\(path):\($0.line): \($0.reason)" }, of: "duplicate lines; nothing stored (--skip-duplicates stores the others)")
            if json {
                Terminal.out(JSONValue.object(["error": .object([
                    "code": .string("quote.novelty"),
                    "message": .string("\(duplicates.count) duplicate lines in \(path); nothing stored"),
                    "lines": .array(duplicates.map { .object(["line": .number(Double($0.line)), "reason": .string($0.reason)]) }),
                ])]).jsonText(sortingKeys: true))
            }
            return .failure
        }
        let ids = try store.addUserQuotes(accepted.map { $0.input.quote(novelty: $0.proof) })
        if !duplicates.isEmpty { report(duplicates.map { "\(path):\($0.line): skipped: \($0.reason)" }, of: "duplicate lines skipped") }
        if json {
            Terminal.out(JSONValue.object([
                "imported": .number(Double(ids.count)), "ids": .array(ids.map { .number(Double($0)) }),
                "skipped": .array(duplicates.map { .object(["line": .number(Double($0.line)), "reason": .string($0.reason)]) }),
            ]).jsonText(sortingKeys: true))
        } else {
            Terminal.out("imported \(ids.count) quotes from \(path)" + (ids.isEmpty ? "" : " (#\(ids.first!)–#\(ids.last!))")
                         + (duplicates.isEmpty ? "" : "; skipped \(duplicates.count) duplicates"))
        }
        return .success
    }

    /// Every line validated before anything else; all problems reported at once.
    static func parse(_ content: String, path: String) throws(UsageError) -> [(line: Int, input: UserQuoteInput)] {
        var quotes: [(Int, UserQuoteInput)] = []
        var problems: [String] = []
        for (index, line) in content.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            do {
                quotes.append((number, try parse(line: String(line))))
            } catch {
                problems.append("\(path):\(number): \(error.message)")
            }
        }
        guard problems.isEmpty else {
            guard problems.count > 1 else { throw UsageError(name, problems[0] + "; nothing stored") }
            report(problems, of: "")
            throw UsageError(name, "\(problems.count) bad lines in \(path); nothing stored")
        }
        guard !quotes.isEmpty else { throw UsageError(name, "\(path): no quotes (the file has no non-blank lines)") }
        return quotes
    }

    private static func parse(line: String) throws(UserQuoteInput.Problem) -> UserQuoteInput {
        guard let parsed = try? JSONValue(parsing: line) else { throw UserQuoteInput.Problem("not valid JSON") }
        guard case .object(let object) = parsed else { throw UserQuoteInput.Problem("not a JSON object") }
        let unknown = Set(object.keys).subtracting(["text", "locale", "author"])
        guard unknown.isEmpty else {
            throw UserQuoteInput.Problem("unknown key \(unknown.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) (keys: text, locale, author)")
        }
        guard let text = object["text"]?.stringValue else { throw UserQuoteInput.Problem("\"text\" must be a string") }
        guard let locale = object["locale"]?.stringValue else { throw UserQuoteInput.Problem("\"locale\" must be a string") }
        var author: String?
        switch object["author"] {
        case nil, .null?: author = nil
        case .string(let name)?: author = name
        default: throw UserQuoteInput.Problem("\"author\" must be a string or null")
        }
        return try UserQuoteInput(text: text, locale: locale, author: author)
    }

    /// Up to `shownProblems` lines on stderr, then how many more.
    private static func report(_ problems: [String], of what: String) {
        for problem in problems.prefix(shownProblems) { Terminal.error(problem) }
        if problems.count > shownProblems { Terminal.error("… and \(problems.count - shownProblems) more") }
        if !what.isEmpty { Terminal.error("\(problems.count) \(what)") }
    }
}
