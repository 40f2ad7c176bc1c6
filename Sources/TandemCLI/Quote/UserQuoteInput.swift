import Foundation
import QuoteLibrary

/// One quote as a person gives it to `quote add` or a line of `quote import`, checked before
/// anything is embedded or stored: words to store, one line, at most the words the novelty
/// check embeds, a supported locale, and an author that is a name when given.
struct UserQuoteInput {
    let text: String
    let locale: String
    let author: String?

    static let maximumAuthorLength = 200

    /// `problem` names what is wrong in words the caller prefixes with where it was.
    init(text rawText: String, locale: String, author rawAuthor: String?) throws(Problem) {
        let text = rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Problem("the quote text is empty") }
        guard !text.contains(where: \.isNewline) else { throw Problem("the quote text has a line break (a quote is one line)") }
        let words = QuoteText.words(text).count
        guard words > 0 else { throw Problem("the quote text has no words (only symbols or emoji): \"\(text)\"") }
        guard words <= NoveltyGate.maximumWords else {
            throw Problem("the quote text has \(words) words; at most \(NoveltyGate.maximumWords)")
        }
        guard SupportedLocale.isSupported(locale) else {
            throw Problem("locale \"\(locale)\" is not supported (en, de, es, fr, it, pt)")
        }
        var author: String?
        if let rawAuthor {
            let trimmed = rawAuthor.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw Problem("the author is empty (leave it out for none)") }
            guard trimmed.count <= Self.maximumAuthorLength, !trimmed.contains(where: \.isNewline) else {
                throw Problem("the author must be one line of at most \(Self.maximumAuthorLength) characters")
            }
            author = trimmed
        }
        (self.text, self.locale, self.author) = (text, SupportedLocale.language(of: locale), author)
    }

    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    func quote(novelty: NoveltyProof?) -> UserQuote {
        UserQuote(text: text, locale: locale, author: author, novelty: novelty)
    }
}
