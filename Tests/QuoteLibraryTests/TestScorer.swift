import Foundation
@testable import QuoteLibrary

/// The distinctiveness score on the word-frequency tables `make word-frequencies` puts in the
/// package's models/ folder (one instance, so each table is read once per test run).
enum TestScorer {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let frequencies = WordFrequencies(directory: packageRoot.appendingPathComponent("models/word-frequencies").path)
    static let scorer = DistinctivenessScorer(frequencies: frequencies)
}
