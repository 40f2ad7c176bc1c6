import Foundation
import QuoteLibrary

/// Which mark a `QuoteMarkCommand` sets.
protocol QuoteMarkKind: Sendable {
    static var mark: QuoteStore.Mark { get }
    static var summary: String { get }
}

enum SaveMark: QuoteMarkKind {
    static let mark = QuoteStore.Mark.saved
    static let summary = "save a stored quote (by its id) to your saved quotes"
}

enum FavoriteMark: QuoteMarkKind {
    static let mark = QuoteStore.Mark.favorite
    static let summary = "mark a stored quote (by its id) as a favourite"
}

/// `tandem quote save ID` and `tandem quote favorite ID`: marks a quote and counts today's
/// activity for the streak (one transaction each).
enum QuoteMarkCommand<Kind: QuoteMarkKind>: Command {
    static var name: String { "quote \(Kind.mark == .saved ? "save" : "favorite")" }
    static var summary: String { Kind.summary }
    static var arguments: String { "ID" }
    static var maxPositionals: Int { 1 }
    static var options: [OptionSpec] { [] }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let text = arguments.positionals.first else { throw UsageError(name, "no quote id given (see tandem quote list)") }
        guard let id = Int64(text), id > 0 else { throw UsageError(name, "quote id must be a positive integer, got \"\(text)\"") }
        let store = try context.writeLibrary(try context.config())
        try store.mark(quoteID: id, as: Kind.mark)
        try store.recordActivity(on: CalendarDay(Date()))
        Terminal.log("quote #\(id) marked \(Kind.mark.rawValue)")
        return .success
    }
}
