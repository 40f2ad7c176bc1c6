import Foundation

/// A generated quote ready to persist (never an author; never public domain).
public struct GeneratedQuote: Sendable {
    public let text: String
    public let locale: String
    public let tags: QuoteTags
    public let wordCount: Int
    public let scores: QuoteScores
    public let modelVersion: String
    public let embedding: (model: String, vector: [Float])?

    public init(text: String, locale: String, tags: QuoteTags, scores: QuoteScores, modelVersion: String,
                embedding: (model: String, vector: [Float])?) {
        (self.text, self.locale, self.tags, self.scores) = (text, locale, tags, scores)
        (self.modelVersion, self.embedding) = (modelVersion, embedding)
        wordCount = QuoteText.words(text).count
    }
}
