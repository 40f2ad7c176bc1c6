import Foundation
@testable import QuoteLibrary

/// Readiness with fixed answers.
struct FixedReadiness: Readiness {
    var report: ReadinessReport
    static let allAvailable = FixedReadiness(report: ReadinessReport(primary: .available, secondary: .available,
                                                                     judge: .available, embedder: .available))
    func report(locale: String) async -> ReadinessReport { report }
}

/// Thread-safe counter/log shared with test doubles.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
}

/// A draft writer that returns scripted answers in turn (the last repeats), optionally slowly.
struct ScriptedWriter: DraftWriter {
    enum Step: Sendable {
        case draft(String)
        case refuse(String)
        case fail(DraftError)
        /// Sleeps (cancellable unless `ignoresCancellation`) before answering the draft.
        case slow(String, Duration, ignoresCancellation: Bool)
    }
    let steps: [Step]
    let log = CallLog()
    let modelVersion = "scripted-1"

    init(_ steps: [Step]) { self.steps = steps }
    init(drafts: [String]) { self.steps = drafts.map { .draft($0) } }

    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
        let index = log.all.count
        log.append(request.instructions)
        switch steps[min(index, steps.count - 1)] {
        case .draft(let text):
            partial(String(text.prefix(10)))
            return .draft(text: text, modelVersion: modelVersion)
        case .refuse(let reason):
            return .refused(reason: reason, modelVersion: modelVersion)
        case .fail(let error):
            throw error
        case .slow(let text, let delay, let ignoresCancellation):
            if ignoresCancellation {
                // A wait that never checks for cancellation (a backend that does not cooperate),
                // without holding one of the few cooperative threads.
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
                }
            } else {
                try await Task.sleep(for: delay)
            }
            return .draft(text: text, modelVersion: modelVersion)
        }
    }
}

/// A judge with one fixed behaviour.
struct ScriptedJudge: Judge {
    enum Behaviour: Sendable { case answer(JudgeAnswer), fail }
    let behaviour: Behaviour
    func judge(draft: String, locale: String) async throws -> JudgeAnswer {
        switch behaviour {
        case .answer(let answer): return answer
        case .fail: throw JudgeError(.unavailable, "judge backend offline")
        }
    }
    static func scoring(_ overall: Double) -> ScriptedJudge {
        ScriptedJudge(behaviour: .answer(.json(#"{"quality": 7, "originality": 7, "warmth": 7, "overall": \#(overall)}"#)))
    }
}

/// An embedder with large vectors, so one stored quote needs new pages (full-disk tests).
struct WideEmbedder: Embedder {
    let model = "wide-test-embedder"
    func embed(_ text: String) async throws -> [Float] {
        LexicalEmbedder(dimensions: 4096).vector(text)
    }
}

/// An embedder whose backend is down.
struct FailingEmbedder: Embedder {
    let model = "failing-embedder"
    func embed(_ text: String) async throws -> [Float] { throw DraftError(.unavailable, "embedding backend offline") }
}
