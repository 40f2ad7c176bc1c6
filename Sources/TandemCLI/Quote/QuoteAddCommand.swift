import Foundation
import JSONModel
import QuoteLibrary
import Tandem

/// `tandem quote add TEXT --locale L [--author NAME]`: stores one quote of the user's (source
/// `user`, never public domain), embedded at once, unless novelty finds it in the library.
enum QuoteAddCommand: Command {
    static let name = "quote add"
    static let summary = "add one quote of your own to the library (refused when it duplicates a stored one)"
    static let arguments = "TEXT --locale L [--author NAME] [--json]"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .option("locale", "L", "the quote's language (en, de, es, fr, it, pt); required"),
        .option("author", "NAME", "who said or wrote it (default: none)"),
        .flag("json", #"print the stored quote as JSON ({"id", "text", "author", "source", ...})"#),
    ]
    static let discussion = """
        The quote is compared with every stored quote first: an exact or normalised copy (case,
        accents, punctuation and spacing folded) is refused before anything is embedded, and a
        near-duplicate (cosine at or above the embedding model's calibrated threshold) is refused
        naming the stored quote. The embedder is quote.embedder, else the model-free lexical one;
        stored quotes without a vector of that model are embedded first.
        Exit status: 0 when stored, 1 when refused as a duplicate or novelty could not be checked,
        2 for bad input.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let text = arguments.positionals.first else { throw UsageError(name, "no quote text given") }
        guard let locale = arguments.string("locale") else { throw UsageError(name, "--locale is required (en, de, es, fr, it, pt)") }
        let input: UserQuoteInput
        do {
            input = try UserQuoteInput(text: text, locale: locale, author: arguments.string("author"))
        } catch {
            throw UsageError(name, error.message)
        }
        let config = try context.config()
        let embedder = try await context.noveltyEmbedder(config)
        let store = try context.writeLibrary(config)
        let verdict = try await NoveltyGate().evaluate(input.text, locale: input.locale, embedder: embedder, store: store,
                                                       progress: LibraryEmbeddingProgress.reporter(store: store, model: embedder.model))
        guard verdict.result.passed else { return refused(verdict.result, json: arguments.flag("json")) }
        let id = try store.addUserQuotes([input.quote(novelty: verdict.proof)])[0]
        guard let stored = try store.quote(id: id) else { throw StoreError(.sqlite, "quote #\(id) was stored but cannot be read back") }
        if let note = verdict.result.reason { Terminal.log(note) }
        if arguments.flag("json") { Terminal.out(try QuotePrinter.json(stored)) } else { Terminal.out(QuotePrinter.line(stored)) }
        return .success
    }

    /// A duplicate, or novelty that could not be checked: nothing is stored.
    static func refused(_ result: GateResult, json: Bool) -> ExitCode {
        let message = "not stored: \(result.reason ?? "novelty rejected it")"
        Terminal.error(message)
        if json {
            Terminal.out(JSONValue.object(["error": .object(["code": .string("quote.novelty"), "message": .string(message)])]).jsonText(sortingKeys: true))
        }
        return .failure
    }
}
