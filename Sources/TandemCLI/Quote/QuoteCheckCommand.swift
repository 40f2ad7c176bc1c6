import QuoteLibrary
import QuoteLibraryHost
import Tandem

/// `tandem quote check TEXT`: the gates on a given draft, without generating (for tuning and
/// fixture tests). Loads plugins only for `--judge` or a configured `quote.embedder`.
enum QuoteCheckCommand: Command {
    static let name = "quote check"
    static let summary = "run the quality gates on a given draft without generating"
    static let arguments = "TEXT [--locale L] [--judge] [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .option("locale", "L", "the language the draft should be in (en, de, es, fr, it, pt; default en)"),
        .flag("judge", "also ask the judge model (quote.judge, else the routed model)"),
        .flag("json", #"print {"accepted", "detectedLanguage", "gates": [{"gate", "passed", "reason", "score"}]}"#),
    ]
    static let discussion = """
        Every deterministic check runs (not only up to the first failure), then novelty against the
        whole library (stored quotes without a vector of the embedding model are embedded first, their
        vectors stored when the library file is writable; quotes are never written; with no library
        yet, the bundled catalog is compared in memory and no file is created), the judge when
        asked, distinctiveness (reading the embedding through the taste model), and taste.
        Exit status: 0 when every gate accepts, 1 when one rejects.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let text = arguments.positionals.first else { throw UsageError(name, "no draft text given") }
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
        let report = await QuoteChecker(store: store, embedder: embedder, judge: judge, judgeCalibration: judgeCalibration,
                                       distinctiveness: distinctiveness)
            .check(text, locale: locale, progress: LibraryEmbeddingProgress.reporter(store: store, model: embedder.model))
        if arguments.flag("json") {
            Terminal.out(try QuotePrinter.json(report))
        } else {
            for gate in report.gates {
                var line = "\(gate.passed ? "pass" : "FAIL")  \(gate.gate.rawValue)"
                if let score = gate.score { line += " (\(Self.format(score)))" }
                if let reason = gate.reason { line += ": \(reason)" }
                Terminal.out(line)
            }
            Terminal.out("\(report.accepted ? "accepted" : "rejected") (detected language: \(report.detectedLanguage ?? "unknown"))")
        }
        return report.accepted ? .success : .failure
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}
