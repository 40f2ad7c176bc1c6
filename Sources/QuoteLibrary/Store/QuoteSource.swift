import Foundation

/// Where a quote came from: the bundled public-domain catalog, or the generation pipeline.
public enum QuoteSource: String, Codable, Sendable { case curated, generated }
