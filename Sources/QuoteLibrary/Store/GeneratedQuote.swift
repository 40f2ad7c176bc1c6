import Foundation

/// A generated quote ready to persist (never an author; never public domain).
public struct GeneratedQuote: Sendable {
    public let text: String
    public let locale: String
    public let tags: QuoteTags
    public let wordCount: Int
    public let scores: QuoteScores
    public let modelVersion: String
    /// What the novelty gate compared: stored with the quote, and re-checked inside the storing
    /// transaction against quotes added since.
    public let novelty: NoveltyProof?

    public init(text: String, locale: String, tags: QuoteTags, scores: QuoteScores, modelVersion: String,
                novelty: NoveltyProof?) {
        (self.text, self.locale, self.tags, self.scores) = (text, locale, tags, scores)
        (self.modelVersion, self.novelty) = (modelVersion, novelty)
        wordCount = QuoteText.words(text).count
    }
}

/// A candidate's embedding and what it was compared against: every stored quote up to
/// `comparedThrough` (the highest quote id at the scan), at `threshold`. `tokenStates`, when the
/// check computed the candidate's, are stored with the vector (as wide as it).
public struct NoveltyProof: Sendable, Equatable {
    public let model: String
    public let vector: [Float]
    public let threshold: Float
    public let comparedThrough: Int64
    public var tokenStates: TokenStates?

    public init(model: String, vector: [Float], threshold: Float, comparedThrough: Int64, tokenStates: TokenStates? = nil) {
        (self.model, self.vector, self.threshold, self.comparedThrough) = (model, vector, threshold, comparedThrough)
        self.tokenStates = tokenStates
    }
}
