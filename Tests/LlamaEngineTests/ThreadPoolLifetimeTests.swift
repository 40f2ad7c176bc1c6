import Foundation
import Testing
@testable import LlamaEngine

/// A pool's workers stop when the pool is released, however soon after its creation: a model
/// load that fails after creating its pool releases it at once, before its workers may have
/// started (this used to trap, "Attempted to read an unowned reference but object ... was
/// already destroyed", about one load in four), and a used pool released later frees its threads.
@Suite struct ThreadPoolLifetimeTests {
    /// The process's thread count, from /proc/self/status.
    static func threadCount() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    @Test func poolsReleasedAtOnceOrAfterUseStopTheirWorkers() {
        let before = Self.threadCount()
        for _ in 0..<2000 { _ = ThreadPool(threads: 3) }
        var sum = 0
        for _ in 0..<300 {
            let pool = ThreadPool(threads: 2)
            withUnsafeMutablePointer(to: &sum) { total in pool.run { i in if i == 0 { total.pointee += 1 } } }
        }
        #expect(sum == 300)
        // 2,600 pools leaking would leave thousands of threads; other suites running beside this
        // one hold a few pools of their own.
        let after = Self.threadCount()
        #expect(after < before + 64, "threads before \(before), after \(after)")
    }
}
