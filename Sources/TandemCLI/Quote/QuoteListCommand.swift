import QuoteLibrary

/// `tandem quote list`: stored quotes, newest first (read-only; loads no plugin).
enum QuoteListCommand: Command {
    static let name = "quote list"
    static let summary = "list stored quotes, newest first"
    static let arguments = "[--source curated|generated|user] [--locale L] [--limit N] [--json]"
    static let options: [OptionSpec] = [
        .option("source", "SOURCE", "only curated, generated or user quotes"),
        .option("locale", "L", "only quotes in this language (en, de, es, fr, it, pt)"),
        .option("limit", "N", "at most N quotes (1...200, default 20)"),
        .flag("json", "print a JSON array"),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let source = try arguments.string("source").map { value throws(UsageError) -> QuoteSource in
            guard let source = QuoteSource(rawValue: value) else {
                throw UsageError(name, "--source: expected curated, generated or user, got \"\(value)\"")
            }
            return source
        }
        let locale = try arguments.string("locale").map { _ throws(UsageError) in try QuotePrinter.locale(arguments, command: name) }
        let limit = try QuotePrinter.limit(arguments, command: name)
        try QuotePrinter.print(try context.readLibrary().list(source: source, locale: locale, limit: limit), json: arguments.flag("json"))
        return .success
    }
}
