import Foundation

/// A quote a person adds (`tandem quote add|import`): stored with source `user`, never as public
/// domain, with the author they name (or none) and the novelty gate's proof for its vector.
public struct UserQuote: Sendable {
    public let text: String
    public let locale: String
    public let author: String?
    public let tags: QuoteTags
    public let novelty: NoveltyProof?

    public init(text: String, locale: String, author: String?, tags: QuoteTags = QuoteTags(), novelty: NoveltyProof?) {
        (self.text, self.locale, self.author, self.tags, self.novelty) = (text, locale, author, tags, novelty)
    }
}

extension QuoteStore {
    /// Stores `quotes` in one transaction with their vectors: all of them, or none when any
    /// fails (a copy of a stored quote, a near-copy stored meanwhile, a full disk). Returns
    /// their ids in order.
    public func addUserQuotes(_ quotes: [UserQuote]) throws -> [Int64] {
        try withConnection { connection in
            try connection.transaction {
                var ids: [Int64] = []
                for (index, quote) in quotes.enumerated() {
                    let key = QuoteText.normalizedKey(quote.text)
                    guard !key.isEmpty else {
                        throw StoreError(.invalidArgument, "quote \(index + 1) has no words to store")
                    }
                    if let existing = try Self.quotes(connection, where: "q.normalized_text = ?", [.text(key)], limit: 1).first {
                        throw StoreError(.constraint, "\(path): quote \(index + 1) is a copy of stored quote #\(existing.id) "
                                         + "(same text after folding case, accents and punctuation)")
                    }
                    try connection.run("""
                        INSERT INTO quotes (text, normalized_text, author, source, is_public_domain, locale, word_count, created_at)
                        VALUES (?, ?, ?, 'user', 0, ?, ?, ?)
                        """, [.text(quote.text), .text(key), .optional(quote.author), .text(quote.locale),
                              .integer(Int64(QuoteText.words(quote.text).count)), .text(Timestamp.now())])
                    let id = connection.lastInsertRowID
                    try Self.insertTags(connection, quoteID: id, tags: quote.tags)
                    if let proof = quote.novelty {
                        try Self.requireNoNewNearCopy(connection, proof: proof, path: path)
                        try Self.insertProof(connection, quoteID: id, proof: proof)
                    }
                    ids.append(id)
                }
                return ids
            }
        }
    }
}
