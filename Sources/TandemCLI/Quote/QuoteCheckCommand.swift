import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Tandem

/// `tandem quote check TEXT`: the gates on a given draft, without generating (for tuning and
/// fixture tests); `--file` checks one draft per line of a file with the models loaded once (the
/// register model's fit reads the rules' verdicts on its labelled lines this way). Loads plugins
/// only for `--judge` or a configured `quote.embedder`.
enum QuoteCheckCommand: Command {
    static let name = "quote check"
    static let summary = "run the quality gates on a given draft without generating"
    static let arguments = "TEXT | --file PATH [--locale L] [--judge] [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .option("file", "PATH", "check each non-blank line of PATH (UTF-8) as a draft of its own, instead of TEXT"),
        .option("locale", "L", "the language the draft should be in (en, de, es, fr, it, pt; default en)"),
        .flag("judge", "also ask the judge model (quote.judge, else the routed model)"),
        .flag("json", #"print {"accepted", "detectedLanguage", "gates": [{"gate", "passed", "reason", "score"}]} (with --file, one such line per draft, with its "text")"#),
    ]
    static let discussion = """
        Every deterministic check runs (not only up to the first failure), then novelty against the
        whole library (stored quotes without a vector of the embedding model are embedded first, their
        vectors stored when the library file is writable; quotes are never written; with no library
        yet, the bundled catalog is compared in memory and no file is created), the register model
        as generate asks it (on a draft the rules pass; on one they reject, to name the cause of
        their first failure, listed after it), the judge when asked, distinctiveness (reading the
        embedding through the taste model), and taste.
        With --file, the drafts are checked in order, each as TEXT would be, and each report
        names its draft; with no library file, the catalog in memory keeps no vectors, so an
        embedding model embeds it again for every draft (create the library first).
        Exit status: 0 when every gate accepts (every draft, with --file), 1 when one rejects.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let drafts = try Self.drafts(arguments)
        let locale = try QuotePrinter.locale(arguments, command: name)
        let config = try context.config()
        let frequencies = WordFrequencies(directory: config.wordFrequenciesDirectory)
        try frequencies.preload([SupportedLocale.language(of: locale)])
        let distinctiveness = DistinctivenessScorer(frequencies: frequencies)
        let embedder: Embedder
        var judge: Judge?
        var judgeCalibration: JudgeCalibration?
        if arguments.flag("judge") {
            let binding = try QuoteBinding(host: try context.host())
            try await context.waitForModels(binding.models, locale: locale)
            (embedder, judge, judgeCalibration) = (binding.embedder, binding.judge, binding.judgeCalibration)
        } else {
            embedder = try await context.noveltyEmbedder(config)
        }
        let store = try context.libraryForNovelty(config)
        let checker = QuoteChecker(store: store, embedder: embedder, judge: judge, judgeCalibration: judgeCalibration,
                                   distinctiveness: distinctiveness)
        var allAccepted = true
        for text in drafts.texts {
            let report = await checker.check(text, locale: locale, progress: LibraryEmbeddingProgress.reporter(store: store, model: embedder.model))
            allAccepted = allAccepted && report.accepted
            if arguments.flag("json") {
                Terminal.out(try drafts.fromFile ? QuotePrinter.json(CheckedDraft(text: text, report: report)) : QuotePrinter.json(report))
                continue
            }
            if drafts.fromFile { Terminal.out("draft: \(text)") }
            for gate in report.gates {
                var line = "\(gate.passed ? "pass" : "FAIL")  \(gate.gate.rawValue)"
                if let score = gate.score { line += " (\(Self.format(score)))" }
                if let reason = gate.reason { line += ": \(reason)" }
                Terminal.out(line)
            }
            Terminal.out("\(report.accepted ? "accepted" : "rejected") (detected language: \(report.detectedLanguage ?? "unknown"))")
        }
        return allAccepted ? .success : .failure
    }

    /// TEXT, or the non-blank lines of --file (one of the two).
    private static func drafts(_ arguments: ParsedArguments) throws -> (texts: [String], fromFile: Bool) {
        guard let path = arguments.string("file") else {
            guard let text = arguments.positionals.first else { throw UsageError(name, "no draft text given (TEXT or --file PATH)") }
            return ([text], false)
        }
        guard arguments.positionals.isEmpty else { throw UsageError(name, "give TEXT or --file PATH, not both") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(name, "--file \(path): cannot be read (missing, a folder, or not readable)")
        }
        guard let content = String(data: data, encoding: .utf8) else { throw UsageError(name, "--file \(path): not UTF-8 text") }
        let texts = content.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        guard !texts.isEmpty else { throw UsageError(name, "--file \(path): no drafts (every line is blank)") }
        return (texts, true)
    }

    /// One report of --file --json: the draft, then the report's own keys.
    private struct CheckedDraft: Encodable {
        let text: String
        let report: CheckReport
        private enum CodingKeys: String, CodingKey { case text }
        func encode(to encoder: Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}
