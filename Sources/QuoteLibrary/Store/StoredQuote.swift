import Foundation

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
