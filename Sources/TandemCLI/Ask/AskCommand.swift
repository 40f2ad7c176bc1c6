import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Tandem

/// `tandem ask "…"`: a question about the quote library, answered by the routed model with
/// three read-only tools over a read-only connection (nothing in the question can write).
enum AskCommand: Command {
    static let name = "ask"
    static let summary = "ask about your quote library (curated quotes by mood/theme, saved quotes, streak); read-only"
    static let arguments = "QUESTION [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .mode,
        .flag("json", "print the answer and every tool call as JSON"),
    ]
    static let discussion = """
        Tools: search_catalog (≤ 5 curated quotes by mood, category or theme), search_saved (≤ 8 saved
        or favourite quotes; no date ranges), streak_status. The library is opened read-only
        (SQLITE_OPEN_READONLY and PRAGMA query_only); arguments and tool output are bounded.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let question = arguments.positionals.first, !question.allSatisfy(\.isWhitespace) else {
            throw UsageError(name, "no question given")
        }
        let routing = try arguments.routingMode()
        let tools = try LibraryTools(store: try context.readLibrary(), today: CalendarDay(Date()))
        let model = try context.host().hybridModel(routing: routing)
        let answer = try await LibraryAgent(model: model, tools: tools).ask(question)
        if arguments.flag("json") {
            Terminal.out(try QuotePrinter.json(answer))
        } else {
            for use in answer.toolUses { Terminal.log("tool \(use.name)(\(use.arguments))\(use.isError ? ": \(use.output)" : "")") }
            Terminal.out(answer.text)
            Terminal.log("served by \(answer.servedBy), model \(answer.modelVersion)")
        }
        return .success
    }
}
