import Foundation

/// Where a quote came from: the bundled public-domain catalog, the generation pipeline, or a
/// person (`tandem quote add|import`; never public domain, author optional).
public enum QuoteSource: String, Codable, Sendable { case curated, generated, user }
