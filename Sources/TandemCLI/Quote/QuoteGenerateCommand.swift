import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Tandem

/// `tandem quote generate`: the quality pipeline on the configured models. Each attempt ends
/// accepted (stored) or says why not; when the budget expires or no model can serve, a curated
/// quote is offered instead.
enum QuoteGenerateCommand: Command {
    static let name = "quote generate"
    static let summary = "generate quotes through the quality pipeline and store the accepted ones"
    static let arguments = "[--locale L] [--count N] [--attempts N] [--budget foreground|voice|batch] [--theme T] [--seed S] [--json]"
    static let options: [OptionSpec] = [
        .option("locale", "L", "language of the quote (en, de, es, fr, it, pt; default en)"),
        .option("count", "N", "accepted quotes wanted (1...20, default 1)"),
        .option("attempts", "N", "attempts in total (at least --count, at most \(QuotePipeline.maximumAttempts); default \(QuotePipeline.defaultAttemptsPerQuote) per quote wanted)"),
        .option("budget", "KIND", "foreground (45 s, default), voice (20 s) or batch (120 s), for all attempts together"),
        .option("theme", "T", "a mood or theme for the line (\"morning courage\")"),
        .option("seed", "S", "seed for sampling (attempt k uses S+k)"),
        .option("budget-limit-ms", "N", "replace the budget's limit by N ms (tuning, tests)"),
        .mode,
        .flag("json", "print one JSON object with every attempt"),
    ]
    static let discussion = """
        One budget covers the whole command: waiting for a model getting ready and every attempt,
        draft and judge included, end by its deadline. Before it starts, stored quotes without a
        vector of the embedding model are embedded (set-up, once per library and model, outside the
        budget). When the primary's draft fails a gate of quote.escalate_on (default: every gate),
        the remaining attempts go to the secondary. Streamed draft text is shown on stderr when it
        is a terminal and is never stored unless the draft passes every gate.
        Exit status: 0 when at least one quote was accepted; 5 when the budget expired; 4 when no
        model could serve; 1 when every draft was rejected or refused, or storing failed.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let locale = try QuotePrinter.locale(arguments, command: name)
        let count = try arguments.integer("count") ?? 1
        guard (1...20).contains(count) else { throw UsageError(name, "--count must be 1...20, got \(count)") }
        let attempts = try arguments.integer("attempts") ?? QuotePipeline.defaultAttempts(count: count)
        guard (count...QuotePipeline.maximumAttempts).contains(attempts) else {
            throw UsageError(name, "--attempts must be \(count)...\(QuotePipeline.maximumAttempts) (at least --count), got \(attempts)")
        }
        let budgetName = arguments.string("budget") ?? Budget.Kind.foreground.rawValue
        guard let kind = Budget.Kind(rawValue: budgetName) else {
            throw UsageError(name, "--budget: expected foreground, voice or batch, got \"\(budgetName)\"")
        }
        let limit = try arguments.integer("budget-limit-ms").map { value throws(UsageError) -> Duration in
            guard value >= 1 else { throw UsageError(name, "--budget-limit-ms must be at least 1, got \(value)") }
            return .milliseconds(value)
        }
        let budget = Budget(kind: kind, limit: limit ?? Budget.standard(kind).limit)
        let seed = try arguments.unsigned("seed")
        let routing = try arguments.routingMode()

        let config = try context.config()
        let store = try context.writeLibrary(config)
        let binding = try QuoteBinding(host: try context.host(), routing: routing)
        try binding.distinctiveness.frequencies.preload([SupportedLocale.language(of: locale)])
        // A model getting ready (a pinned file being checked) is waited for within the one budget:
        // what the wait took is what the attempts no longer have.
        let seconds = Double(budget.limit.components.seconds) + Double(budget.limit.components.attoseconds) / 1e18
        let waitStart = ContinuousClock.now
        try await CancellableGeneration.run(timeout: seconds) { token in
            try await ModelWait.ready(binding.models, locale: locale, cancellation: token)
        }
        let waited = ContinuousClock.now - waitStart
        // Embedding the stored quotes the library lacks vectors for is set-up, outside the budget
        // (once per library and embedding model; every later command finds them stored).
        do {
            try await LibraryEmbeddingProgress.prepare(store: store, embedder: binding.embedder)
        } catch {
            // Each attempt's novelty check tries again and records why it could not compare.
            Terminal.log("the library could not be embedded with \(binding.embedder.model): \(error)")
        }
        let remaining = Budget(kind: budget.kind, limit: max(budget.limit - waited, .milliseconds(1)))
        let pipeline = binding.pipeline(store: store)
        let theme = arguments.string("theme")
        Terminal.progress("generating \(count) in one \(budget.limit) budget…")
        let outcomes = await pipeline.generate(count: count, attempts: attempts, locale: locale, theme: theme,
                                               budget: remaining, seed: seed) { attempt, partial in
            Terminal.progress("attempt \(attempt + 1): \(partial)")
        }
        Terminal.clearProgress()
        if outcomes.contains(where: { $0.run.branch == .accepted }) { try? store.recordActivity(on: CalendarDay(Date())) }

        // When nothing new can be had in time, the curated library still serves.
        let last = outcomes.last?.run.branch
        let offered = outcomes.contains(where: { $0.run.branch == .accepted }) || !(last == .timeout || last == .unavailable)
            ? nil : try store.list(source: .curated, locale: locale, limit: QuoteStore.maximumListLimit)
                .randomElement()
        if arguments.flag("json") {
            Terminal.out(try QuotePrinter.json(GenerateReport(results: outcomes.map(GenerateReport.Attempt.init), offered: offered)))
        } else {
            for (index, outcome) in outcomes.enumerated() { Terminal.out("\(index + 1). \(describe(outcome))") }
            if let offered { Terminal.out("instead, from the curated library: \(QuotePrinter.line(offered))") }
        }
        return exitCode(outcomes)
    }

    private static func describe(_ outcome: GenerationOutcome) -> String {
        let run = outcome.run
        let draft = run.draftText.map { " (draft: \($0))" } ?? ""
        let escalated = run.escalation.map { "[secondary, after the primary failed \($0.gate.rawValue)] " } ?? ""
        return escalated + describeEnd(outcome, draft: draft)
    }

    private static func describeEnd(_ outcome: GenerationOutcome, draft: String) -> String {
        let run = outcome.run
        switch run.branch {
        case .accepted:
            return "accepted " + (outcome.quote.map(QuotePrinter.line) ?? "quote #\(run.quoteID ?? 0)")
                + (run.noveltyProven ? "" : " [novelty not proven]")
        case .rejected: return "rejected by \(run.gate ?? "a gate"): \(run.reason ?? "")\(draft)"
        default: return "\(run.branch.rawValue): \(run.reason ?? "")\(draft)"
        }
    }

    private static func exitCode(_ outcomes: [GenerationOutcome]) -> ExitCode {
        let branches = outcomes.map(\.run.branch)
        if branches.contains(.accepted) { return .success }
        if branches.contains(.timeout) { return .cancelled }
        if branches.contains(.unavailable) { return .unavailable }
        return .failure
    }
}

/// What `quote generate --json` prints.
struct GenerateReport: Encodable {
    struct Attempt: Encodable {
        let branch: String
        let gate: String?
        let reason: String?
        let draft: String?
        let modelVersion: String?
        let servedBy: String?
        let escalation: Escalation?
        let timings: StageTimings
        let elapsedMilliseconds: Int
        let noveltyProven: Bool
        let judgeSource: String?
        let persistence: String
        let gates: [GateResult]
        let quote: StoredQuote?

        init(_ outcome: GenerationOutcome) {
            let run = outcome.run
            (branch, gate, reason, draft, modelVersion) = (run.branch.rawValue, run.gate, run.reason, run.draftText, run.modelVersion)
            (servedBy, escalation, timings) = (run.servedBy?.rawValue, run.escalation, run.timings)
            (elapsedMilliseconds, noveltyProven, judgeSource) = (run.elapsedMilliseconds, run.noveltyProven, run.judgeSource)
            (persistence, gates, quote) = (run.persistence.description, outcome.gates, outcome.quote)
        }
    }
    let results: [Attempt]
    /// A curated quote offered when the budget expired or no model could serve.
    let offered: StoredQuote?
}
