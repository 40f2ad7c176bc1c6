import Foundation

/// Where a quote came from: the bundled public-domain catalog, or the generation pipeline.
public enum QuoteSource: String, Codable, Sendable { case curated, generated }

/// Mood, category and theme tags (lower-case words, e.g. mood "hopeful", category "courage").
public struct QuoteTags: Codable, Equatable, Sendable {
    public var moods: [String]
    public var categories: [String]
    public var themes: [String]

    public init(moods: [String] = [], categories: [String] = [], themes: [String] = []) {
        (self.moods, self.categories, self.themes) = (moods, categories, themes)
    }

    var rows: [(kind: String, tag: String)] {
        moods.map { ("mood", $0) } + categories.map { ("category", $0) } + themes.map { ("theme", $0) }
    }
}

/// The scores a generated quote was accepted with.
public struct QuoteScores: Codable, Equatable, Sendable {
    public var judge: JudgeScores
    /// "model" when the judge session scored it, otherwise why the deterministic fallback stood in.
    public var judgeSource: String
    public var distinctiveness: Double

    public init(judge: JudgeScores, judgeSource: String, distinctiveness: Double) {
        (self.judge, self.judgeSource, self.distinctiveness) = (judge, judgeSource, distinctiveness)
    }
}

/// A quote row as read back from the library.
public struct StoredQuote: Codable, Equatable, Sendable {
    public let id: Int64
    public let text: String
    public let author: String?
    public let source: QuoteSource
    public let isPublicDomain: Bool
    public let locale: String
    public let tags: QuoteTags
    public let wordCount: Int
    public let scores: QuoteScores?
    public let modelVersion: String?
    public let createdAt: String
}

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
