import Foundation
import PluginFixtures
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

/// A draft writer that returns scripted answers in turn (the last repeats). Time passes only on
/// a `ManualClock`: `takes` advances it (a draft that took that long), `waits` sleeps on it
/// until the test advances it.
struct ScriptedWriter: DraftWriter {
    enum Step: Sendable {
        case draft(String)
        /// A draft written by the given side with the given model version.
        case drafted(String, side: DraftSide, modelVersion: String)
        case refuse(String)
        case fail(DraftError)
        /// Advances `clock` by the duration, then answers the draft.
        case takes(String, Duration, ManualClock)
        /// Sleeps on `clock` for the duration (cancellable unless `ignoresCancellation`), then answers.
        case waits(String, Duration, ManualClock, ignoresCancellation: Bool)
    }
    let steps: [Step]
    let log = CallLog()
    /// The side each request asked for ("routed" when the routing chooses).
    let sides = CallLog()
    let modelVersion = "scripted-1"

    init(_ steps: [Step]) { self.steps = steps }
    init(drafts: [String]) { self.steps = drafts.map { .draft($0) } }

    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
        let index = log.all.count
        log.append(request.instructions)
        sides.append(request.side?.rawValue ?? "routed")
        switch steps[min(index, steps.count - 1)] {
        case .draft(let text):
            partial(String(text.prefix(10)))
            return .draft(text: text, modelVersion: modelVersion)
        case .drafted(let text, let side, let version):
            return .draft(text: text, modelVersion: version, servedBy: side)
        case .refuse(let reason):
            return .refused(reason: reason, modelVersion: modelVersion)
        case .fail(let error):
            throw error
        case .takes(let text, let duration, let clock):
            clock.advance(by: duration)
            return .draft(text: text, modelVersion: modelVersion)
        case .waits(let text, let duration, let clock, let ignoresCancellation):
            let until = clock.now + duration
            if ignoresCancellation {
                // A backend that never checks for cancellation: an unstructured task does not
                // inherit it.
                await Task { try? await clock.sleep(until: until) }.value
            } else {
                try await clock.sleep(until: until)
            }
            return .draft(text: text, modelVersion: modelVersion)
        }
    }
}

/// A judge with one fixed behaviour; `takes` advances a manual clock first (a slow judge).
struct ScriptedJudge: Judge {
    enum Behaviour: Sendable { case answer(JudgeAnswer), fail }
    let behaviour: Behaviour
    var takes: (Duration, ManualClock)?
    func judge(draft: String, locale: String) async throws -> JudgeAnswer {
        if let (duration, clock) = takes { clock.advance(by: duration) }
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
