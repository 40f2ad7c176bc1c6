import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Tandem

/// `tandem eval`: runs the evaluation protocol (readiness states × locales × prompts × budgets)
/// through the quote pipeline on the configured backends, into a fresh library of its own, and
/// writes `report.json` and `summary.md`.
enum EvalCommand: Command {
    static let name = "eval"
    static let summary = "run the quote pipeline's evaluation protocol; write report.json and summary.md"
    static let arguments = "[--protocol PATH] [--out DIR] [--budget-limit-ms N] [--json]"
    static let options: [OptionSpec] = [
        .option("protocol", "PATH", "the protocol file (default eval/protocol.json)"),
        .option("out", "DIR", "where report.json, summary.md and the run's own eval.sqlite go (default eval-report)"),
        .option("budget-limit-ms", "N", "replace every budget's limit by N ms (a fast fake needs less than 45 s)"),
        .mode,
        .flag("json", "print the summary as JSON"),
    ]
    static let discussion = """
        The run uses DIR/eval.sqlite, recreated each time, so the evaluation never adds to your library.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let protocolPath = arguments.string("protocol") ?? "eval/protocol.json"
        let out = arguments.string("out") ?? "eval-report"
        let limit = try arguments.integer("budget-limit-ms").map { value throws(UsageError) -> Duration in
            guard value >= 1 else { throw UsageError(name, "--budget-limit-ms must be at least 1, got \(value)") }
            return .milliseconds(value)
        }
        let routing = try arguments.routingMode()
        let evaluation = try EvaluationProtocol.load(path: protocolPath)
        let binding = try QuoteBinding(host: try context.host(), routing: routing)
        try binding.distinctiveness.frequencies.preload(SupportedLocale.languages)

        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let storePath = (out as NSString).appendingPathComponent("eval.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: storePath + suffix) {
            try FileManager.default.removeItem(atPath: storePath + suffix)
        }
        let runner = EvaluationRunner(store: try LibraryAccess.openForWriting(path: storePath), readiness: binding.readiness,
                                      writer: binding.writer, judge: binding.judge, embedder: binding.embedder,
                                      distinctiveness: binding.distinctiveness, budgetLimitOverride: limit)
        let report = await runner.run(evaluation) { index, total in Terminal.progress("cell \(index)/\(total)…") }
        Terminal.clearProgress()
        try report.write(to: out)
        let summary = report.summary
        if arguments.flag("json") {
            Terminal.out(try QuotePrinter.json(summary))
        } else {
            Terminal.out(String(format: "%d attempts, %d accepted (%.1f%%), %d timeouts", summary.attempts, summary.accepted,
                                summary.acceptanceRate * 100, summary.timeouts))
        }
        Terminal.log("wrote \((out as NSString).appendingPathComponent("report.json")) and summary.md")
        return .success
    }
}
