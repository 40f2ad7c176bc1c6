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
    static let arguments = "[--protocol PATH] [--out DIR] [--budget-limit-ms N] [--json] | --judge [--lines DIR] [--locale L] [--json]"
    static let options: [OptionSpec] = [
        .option("protocol", "PATH", "the protocol file (default eval/protocol.json)"),
        .option("out", "DIR", "where report.json, summary.md and the run's own eval.sqlite go (default eval-report)"),
        .option("budget-limit-ms", "N", "replace every budget's limit by N ms (a fast fake needs less than 45 s)"),
        .mode,
        .flag("json", "print the summary as JSON"),
        .flag("judge", "instead, measure the judge's AUC on the labelled good and generic lines"),
        .option("lines", "DIR", "the labelled lines for --judge (default eval/lines)"),
        .option("locale", "L", "with --judge: only this language's lines (default all six)"),
    ]
    static let discussion = """
        The run uses DIR/eval.sqlite, recreated each time, so the evaluation never adds to your library.
        With --judge: asks the judge (quote.judge, else the routed model) to score every held-out labelled line
        and writes its AUC to judge-calibration.json next to the config file. A judge below AUC 0.7 is
        not trusted: from then on the bounded deterministic score stands in for it, and each run's judge
        source says why. Trust is per language. Exit status 0 when the judge is trusted in a language, 1 when in none.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        if arguments.flag("judge") { return try await calibrateJudge(arguments, context: context) }
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
        let runner = EvaluationRunner(pipeline: binding.pipeline(store: try LibraryAccess.openForWriting(path: storePath)),
                                      budgetLimitOverride: limit)
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

    private static func calibrateJudge(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let lines = LabelledLines(folder: arguments.string("lines") ?? "eval/lines")
        let config = try context.config()
        let binding = try QuoteBinding(host: try context.host(), routing: try arguments.routingMode(), readingCalibration: false)
        let calibration = try await JudgeCalibration.measure(
            judge: binding.judge, judgeModel: binding.judgeModelID, lines: lines,
            languages: arguments.string("locale") == nil ? SupportedLocale.languages.sorted()
                : [SupportedLocale.language(of: try QuotePrinter.locale(arguments, command: name))]) { index, total in Terminal.progress("line \(index)/\(total)…") }
        Terminal.clearProgress()
        let file = QuoteBinding.judgeCalibrationFile(config)
        try calibration.write(to: file)
        if arguments.flag("json") {
            Terminal.out(try QuotePrinter.json(calibration))
        } else {
            for (language, figures) in calibration.languages.sorted(by: { $0.key < $1.key }) {
                Terminal.out(String(format: "judge %@ in %@: AUC %.3f on %d good and %d generic lines (%d unanswered): %@",
                                    calibration.judgeModel, language, figures.auc, figures.goodLines, figures.genericLines,
                                    figures.unanswered, figures.trusted ? "trusted"
                                        : "not trusted (< 0.7); the bounded deterministic score stands in"))
            }
        }
        Terminal.log("wrote \(file)")
        return calibration.trusted ? .success : .failure
    }
}
