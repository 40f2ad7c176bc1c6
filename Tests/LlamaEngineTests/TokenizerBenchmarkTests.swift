import Foundation
import Testing
@testable import LlamaEngine

/// Prints tokenizer throughput; runs only when TANDEM_BENCH=1 (use a release build:
/// `TANDEM_BENCH=1 swift test -c release --filter TokenizerBenchmarkTests`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TANDEM_BENCH"] == "1"))
struct TokenizerBenchmarkTests {
    @Test func defaultModelThroughput() throws {
        let tokenizer = try TokenizerReferenceTests.tokenizer.get()
        let figures = TokenizerBenchmark.run(tokenizer: tokenizer)
        print(figures)
        #expect(figures.tokens > 0)
    }
}
