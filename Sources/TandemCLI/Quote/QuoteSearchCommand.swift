/// `tandem quote search TEXT`: stored quotes whose text or author contains TEXT (read-only).
enum QuoteSearchCommand: Command {
    static let name = "quote search"
    static let summary = "find stored quotes whose text or author contains TEXT"
    static let arguments = "TEXT [--limit N] [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .option("limit", "N", "at most N quotes (1...200, default 20)"),
        .flag("json", "print a JSON array"),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let text = arguments.positionals.first, !text.allSatisfy(\.isWhitespace) else {
            throw UsageError(name, "no search text given")
        }
        let limit = try QuotePrinter.limit(arguments, command: name)
        try QuotePrinter.print(try context.readLibrary().search(text, limit: limit), json: arguments.flag("json"))
        return .success
    }
}
