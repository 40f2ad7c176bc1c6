import Foundation
import QuoteLibrary
import QuoteLibraryHost
import Tandem

// `make bench-novelty`: the novelty gate's exact scan at 10k and 100k rows (the SIMD scan and
// the plain reference beside it), loading 10k vectors from SQLite, and one whole check at 10k
// rows with the embedding model loaded (copy lookup, candidate embedding, missing-vector query,
// scan). The check uses `quote.embedder` of the config given as the second argument, else the
// fake plugin's hashed n-grams at 384 dimensions.
//
// Usage: tandem-bench-novelty PLUGINS_DIR [CONFIG]

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Random unit vectors from a seeded xorshift (the system generator makes a system call per
/// number: minutes for the token states of 10k rows).
func unitVectors(_ count: Int, dimensions: Int, seed: UInt64 = 0x9e37_79b9_7f4a_7c15) -> [[Float]] {
    var generator = XorShift(state: seed)
    return (0..<count).map { _ in
        let vector = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &generator) }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return vector.map { $0 / norm }
    }
}

struct XorShift: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: tandem-bench-novelty PLUGINS_DIR [CONFIG]\n".utf8))
    exit(2)
}
let dimensions = 384
let clock = ContinuousClock()

// ---- The scan alone ----
for rows in [10_000, 100_000] {
    var matrix = EmbeddingMatrix(model: "bench", dimensions: dimensions)
    for (id, vector) in unitVectors(rows, dimensions: dimensions).enumerated() { matrix.append(id: Int64(id), vector: vector) }
    let queries = unitVectors(21, dimensions: dimensions)
    var fast: [Double] = [], plain: [Double] = []
    for query in queries {
        fast.append(milliseconds(clock.measure { _ = matrix.nearest(to: query) }))
        if rows == 10_000 { plain.append(milliseconds(clock.measure { _ = matrix.nearestByReference(to: query) })) }
    }
    var line = String(format: "novelty scan, %6d rows × %d: p50 %.2f ms (SIMD)", rows, dimensions, median(fast))
    if !plain.isEmpty { line += String(format: ", %.2f ms (plain reference)", median(plain)) }
    print(line + String(format: "; matrix %.0f MB", Double(rows * dimensions * 4) / 1e6))
}

// ---- A library of 10k quotes with vectors of the embedder's model ----
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-novelty-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

let configPath: String
if arguments.count >= 3 {
    configPath = arguments[2]
} else {
    configPath = folder + "/tandem.json"
    try """
        {"plugins_dir": "\(URL(fileURLWithPath: arguments[1]).standardizedFileURL.path)", "mode": "local-only",
         "backends": {"local": {"plugin": "tandem.fake", "settings": {"kind": "local", "embedding_dims": "\(dimensions)"}}},
         "quote": {"embedder": "local"}}
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
}
let host = TandemHost.open(try TandemConfig.load(from: configPath))
guard let model = try HostEmbedder.configuredModel(host: host) else {
    FileHandle.standardError.write(Data("\(configPath): no quote.embedder to measure the check with\n".utf8))
    exit(2)
}
let embedder = HostEmbedder(model: model)
let width = try await embedder.embed("warm-up: the model is loaded before anything is timed").count

let store = try QuoteStore.open(path: folder + "/lib.sqlite")
let rows = 10_000
let batch = 1_000
let vectors = unitVectors(rows, dimensions: width)
// With an embedder whose states the paraphrase step reads, every row also gets 20 tokens of
// random states, as the library keeps them: the check reads them as it would real ones.
let statesPerRow = NoveltyGate().readsTokenStates(embedder) ? 20 : 0
for start in stride(from: 0, to: rows, by: batch) {
    let quotes = (start..<start + batch).map { index in
        let states = statesPerRow == 0 ? nil
            : TokenStates(ids: (0..<statesPerRow).map { Int32(index * 7 + $0) }, states: unitVectors(statesPerRow, dimensions: width, seed: UInt64(index + 1)))
        return UserQuote(text: "Bench line \(index) keeps the kettle \(index % 97) warm for shift \(index / 97).", locale: "en",
                         author: nil, novelty: NoveltyProof(model: embedder.model, vector: vectors[index], threshold: 2,
                                                            comparedThrough: .max, tokenStates: states))
    }
    _ = try store.addUserQuotes(quotes)
}
let reader = try QuoteStore.open(path: folder + "/lib.sqlite")
let load = clock.measure { _ = try? reader.embeddingMatrix(model: embedder.model, dimensions: width) }
print(String(format: "novelty matrix load from SQLite, %d rows × %d: %.1f ms (once per process)", rows, width, milliseconds(load)))

let candidates = ["Repaint the rusty mailbox red and wave at every neighbour who walks past it.",
                  "Fold the warm blanket twice and leave it on the bench for the night nurse.",
                  "Carry the spare key to your neighbour before the evening rain reaches her porch.",
                  "Teach the old dog one new trick and laugh when it gets it wrong.",
                  "Bake two loaves on Saturday and give the second one to the family upstairs."]
var checks: [Double] = []
var embeds: [Double] = []
var passes: [Int] = []
for round in 0..<20 {
    let text = candidates[round % candidates.count]
    embeds.append(milliseconds(try await clock.measure { _ = try await embedder.embed(text + " ") }))
    let elapsed = try await clock.measure {
        let verdict = try await NoveltyGate().evaluate(text, embedder: embedder, store: reader)
        precondition(verdict.result.score != nil, "the check compared: \(verdict.result)")
        passes.append(verdict.tokenStatePasses)
    }
    checks.append(milliseconds(elapsed))
}
print(String(format: "novelty check, %d rows, embedder %@ (%d dims): p50 %.2f ms, max %.2f ms; token-state passes per check: %@; "
             + "embedding a candidate alone: p50 %.2f ms",
             rows, embedder.model, width, median(checks), checks.max()!, Set(passes).sorted().map(String.init).joined(separator: "/"),
             median(embeds)))
