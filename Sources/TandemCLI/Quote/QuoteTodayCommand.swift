import Foundation
import QuoteLibrary

/// `tandem quote today`: the quote of the day from stored rows only. It reads the config for the
/// library path and never loads a plugin (README "The quote library": the today view works with no
/// model at all).
enum QuoteTodayCommand: Command {
    static let name = "quote today"
    static let summary = "the quote of the day, from the stored library only (no model, no plugin)"
    static let arguments = "[--locale L] [--day YYYY-MM-DD] [--json]"
    static let options: [OptionSpec] = [
        .option("locale", "L", "language of the quote (en, de, es, fr, it, pt; default en)"),
        .option("day", "YYYY-MM-DD", "another day than today (local time)"),
        .flag("json", "print the quote as JSON"),
    ]
    static let discussion = """
        Reading the quote of the day never writes: the library is opened read-only (it does not count
        towards the streak), and with no library yet the bundled catalog is read in memory, without
        creating the file.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let locale = try QuotePrinter.locale(arguments, command: name)
        let day: CalendarDay
        do { day = try arguments.string("day").map { try CalendarDay($0) } ?? CalendarDay(Date()) } catch {
            throw UsageError(name, "--day: \(error)")
        }
        let path = try context.libraryPath(try context.config())
        guard let quote = try LibraryAccess.today(path: path, locale: locale, day: day) else {
            Terminal.error("the library has no quotes")
            return .failure
        }
        Terminal.out(arguments.flag("json") ? try QuotePrinter.json(quote) : QuotePrinter.line(quote))
        return .success
    }
}
