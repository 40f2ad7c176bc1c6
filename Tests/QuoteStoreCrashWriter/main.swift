// Test helper for the store's multi-process tests: writes generated quotes, one transaction each
// (quote + 3 tags + run record), as fast as it can. The tests run two at once (no row may be lost)
// or kill one with SIGKILL mid-batch (the file must stay intact with no partial rows).
// Usage: QuoteStoreCrashWriter DATABASE PREFIX COUNT   (COUNT 0 = until killed)
import Foundation
import QuoteLibrary

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]), count >= 0 else {
    FileHandle.standardError.write(Data("usage: QuoteStoreCrashWriter DATABASE PREFIX COUNT\n".utf8))
    exit(64)
}
let (path, prefix) = (arguments[1], arguments[2])
do {
    let store = try QuoteStore.open(path: path)
    let ready = ReadinessReport(primary: .available, secondary: .available, judge: .available, embedder: .available)
    let scores = QuoteScores(judge: JudgeScores(quality: 7, originality: 7, warmth: 7, overall: 7),
                             judgeSource: "model", distinctiveness: 6)
    var index = 0
    while count == 0 || index < count {
        let text = "\(prefix) writer line number \(index) keeps the kettle warm for the morning shift"
        let quote = GeneratedQuote(text: text, locale: "en",
                                   tags: QuoteTags(moods: ["calm"], categories: ["work"], themes: ["test\(index % 7)"]),
                                   scores: scores, modelVersion: "crash-writer",
                                   embedding: ("crash-writer", [Float](repeating: Float(index), count: 64)))
        var run = GenerationRun(startedAt: "2026-01-01T00:00:00Z", locale: "en", budget: "batch", readiness: ready)
        run.branch = .accepted
        run.draftText = text
        _ = try store.persist(quote, run: run)
        index += 1
        if index == 1 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
