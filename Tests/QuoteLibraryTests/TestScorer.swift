import Foundation
import PluginFixtures
@testable import QuoteLibrary

/// The distinctiveness score on the word-frequency tables `make word-frequencies` puts in the
/// package's models/ folder (one instance, so each table is read once per test run).
enum TestScorer {
    static let frequencies = WordFrequencies(directory: PackagePaths.models + "/word-frequencies")
    static let scorer = DistinctivenessScorer(frequencies: frequencies)
}
