// Test helper for the store's multi-process tests (not shipped).
//   QuoteStoreCrashWriter persist DATABASE PREFIX COUNT
//       writes COUNT quotes straight through QuoteStore.persist (quote + 3 tags + run, one
//       transaction each); two run at once and no row may be lost.
//   QuoteStoreCrashWriter pipeline DATABASE
//       runs QuotePipeline batches (novelty backfill, judge, persist, run records) until killed;
//       the test kills it with SIGKILL and checks the file is intact with no partial rows.
// Prints "started" once the first quote is committed. COUNT 0 means until killed.
import Foundation
import QuoteLibrary

/// Distinct concrete lines from a few word lists, so batches keep passing the gates.
struct CombinatorialWriter: DraftWriter {
    static let objects = ["kettle", "blanket", "lantern", "basket", "ladder", "teapot", "bicycle", "umbrella", "toolbox", "radio"]
    static let people = ["Ada", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemal"]
    static let weather = ["rain", "snow", "fog", "storm", "frost", "wind", "dusk"]
    static let places = ["porch", "harbour", "bakery", "station", "garden", "chapel", "market", "bridge", "kitchen"]
    let counter = Counter()

    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
        let n = counter.next()
        // Every slot changes from one line to the next (strides coprime to the list sizes).
        let text = "Carry the \(Self.objects[n % 10]) to \(Self.people[(n * 3) % 11]) before the "
            + "\(Self.weather[(n * 5) % 7]) reaches the \(Self.places[(n * 7) % 9])."
        return .draft(text: text, modelVersion: "combinatorial-1")
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { value += 1; lock.unlock() }; return value }
}

struct SteadyJudge: Judge {
    func judge(draft: String, locale: String) async throws -> JudgeAnswer {
        .json(#"{"quality": 7, "originality": 7, "warmth": 7, "overall": 7}"#)
    }
}

struct AllReady: Readiness {
    func report(locale: String) async -> ReadinessReport {
        ReadinessReport(primary: .available, secondary: .available, judge: .available, embedder: .available)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: QuoteStoreCrashWriter persist DATABASE PREFIX COUNT | pipeline DATABASE") }
let path = arguments[2]
let firstCommit = Counter()
func announce() {
    if firstCommit.next() == 0 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
}

do {
    let store = try QuoteStore.open(path: path)
    switch arguments[1] {
    case "persist":
        guard arguments.count == 5, let count = Int(arguments[4]), count >= 0 else { fail("persist needs PREFIX COUNT") }
        let ready = ReadinessReport(primary: .available, secondary: .available, judge: .available, embedder: .available)
        let scores = QuoteScores(judge: JudgeScores(quality: 7, originality: 7, warmth: 7, overall: 7),
                                 judgeSource: "model", distinctiveness: 6)
        var index = 0
        while count == 0 || index < count {
            let text = "\(arguments[3]) writer line number \(index) keeps the kettle warm for the morning shift"
            let quote = GeneratedQuote(text: text, locale: "en",
                                       tags: QuoteTags(moods: ["calm"], categories: ["work"], themes: ["test\(index % 7)"]),
                                       scores: scores, modelVersion: "crash-writer",
                                       novelty: NoveltyProof(model: "crash-writer", vector: [Float](repeating: Float(index), count: 64),
                                                             threshold: 1.5, comparedThrough: .max))
            var run = GenerationRun(startedAt: "2026-01-01T00:00:00Z", locale: "en", budget: "batch", readiness: ready)
            run.branch = .accepted
            run.draftText = text
            _ = try store.persist(quote, run: run)
            index += 1
            announce()
        }
    case "pipeline":
        try CuratedCatalog.importIfNeeded(into: store)
        // The word-frequency tables `make word-frequencies` put under the package's models/.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let frequencies = WordFrequencies(directory: packageRoot.appendingPathComponent("models/word-frequencies").path)
        let pipeline = QuotePipeline(store: store, readiness: AllReady(), writer: CombinatorialWriter(), judge: SteadyJudge(),
                                     embedder: LexicalEmbedder(), distinctiveness: DistinctivenessScorer(frequencies: frequencies))
        while true {
            let outcomes = await pipeline.generate(count: 5, locale: "en", theme: "errands", budget: .batch)
            if outcomes.contains(where: { $0.run.branch == .accepted }) { announce() }
        }
    default:
        fail("unknown mode \(arguments[1])")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
