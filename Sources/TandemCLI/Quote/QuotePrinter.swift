import Foundation
import QuoteLibrary
import Tandem

/// How stored quotes look on the terminal and in `--json` output.
enum QuotePrinter {
    static func line(_ quote: StoredQuote) -> String {
        var text = "#\(quote.id) [\(quote.locale), \(quote.source.rawValue)] \(quote.text)"
        if let author = quote.author { text += " — \(author)" }
        if let scores = quote.scores {
            text += String(format: " (judge %.0f, distinctiveness %.1f)", scores.judge.overall, scores.distinctiveness)
        }
        return text
    }

    /// JSON text of any encodable value (quotes, reports), keys sorted for stable output.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func print(_ quotes: [StoredQuote], json: Bool) throws {
        if json {
            Terminal.out(try Self.json(quotes))
        } else if quotes.isEmpty {
            Terminal.log("no quotes")
        } else {
            quotes.forEach { Terminal.out(line($0)) }
        }
    }

    /// A locale option's value, checked against the supported languages.
    static func locale(_ arguments: ParsedArguments, command: String) throws(UsageError) -> String {
        let locale = arguments.string("locale") ?? "en"
        guard SupportedLocale.isSupported(locale) else {
            throw UsageError(command, "--locale: \"\(locale)\" is not supported (en, de, es, fr, it, pt)")
        }
        return locale
    }

    static func limit(_ arguments: ParsedArguments, command: String) throws(UsageError) -> Int {
        let limit = try arguments.integer("limit") ?? 20
        guard (1...QuoteStore.maximumListLimit).contains(limit) else {
            throw UsageError(command, "--limit must be 1...\(QuoteStore.maximumListLimit), got \(limit)")
        }
        return limit
    }
}
