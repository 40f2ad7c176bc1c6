import Foundation
import LlamaEngine

/// `embed-bench FILE [-t THREADS] [-w WORDS] [-s SENTENCES] [-r RUNS] [-b TOKENS] [-p PREFIX] [--json]`:
/// sentence-encoder throughput over `SENTENCES` sentences of `WORDS` words (drawn from words of
/// the six library languages, after `PREFIX`, default "query: "), one text per call, and on a
/// BERT encoder also all of them in one call (`embed(texts:)`, passes of up to `TOKENS` tokens, as
/// the plugin embeds a request's texts), the modes measured in the same runs, interleaved. A
/// llama-architecture sentence encoder (EmbeddingGemma) runs one text per pass. Each line is the
/// median of `RUNS` runs, wall clock and per CPU-second.
enum EmbedBenchCommand {
    /// Ordinary words of en, de, es, fr, it, pt; sentences are drawn from them with a fixed seed.
    static let words = """
        the old keeper painted his door yellow every spring while children played near water \
        der alte Wärter strich seine Tür jeden Frühling gelb während Kinder spielten \
        el viejo guardián pintaba su puerta amarilla cada primavera mientras niños jugaban \
        le vieux gardien peignait sa porte jaune chaque printemps pendant que enfants jouaient \
        il vecchio custode dipingeva la porta gialla ogni primavera mentre bambini giocavano \
        o velho guarda pintava sua porta amarela cada primavera enquanto crianças brincavam
        """.split(separator: " ").map(String.init)

    static func sentences(count: Int, words perSentence: Int, prefix: String) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % words.count
        }
        return (0..<count).map { _ in prefix + (0..<perSentence).map { _ in words[next()] }.joined(separator: " ") + "." }
    }

    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let threads = try args.intOption("-t", "--threads", default: LlamaModel.availableCores)
        let perSentence = try args.intOption("-w", "--words", default: 16)
        let count = try args.intOption("-s", "--sentences", default: 200)
        let runs = try args.intOption("-r", default: 3)
        let batchTokens = try args.intOption("-b", "--batch-tokens", default: EncoderModel.defaultBatchTokens)
        let prefix = try args.option("-p", "--prefix") ?? "query: "
        let json = args.flag("--json")
        try args.finish()
        guard perSentence > 0, count > 0, runs > 0, batchTokens > 0 else { throw UsageError(description: "-w, -s, -r and -b must be positive") }

        let model = try loadSentenceEncoder(path: path, threads: threads, batchTokens: batchTokens)
        let texts = sentences(count: count, words: perSentence, prefix: prefix)
        let lists = texts.map(model.tokens(for:))
        _ = try model.embed(tokenLists: lists, shouldCancel: { false })  // warm the mapping and the pool
        struct Mode { let name: String; let embed: () throws -> Void; var wall: [Double] = [], cpu: [Double] = [] }
        var modes = [
            Mode(name: "one text per call", embed: { for list in lists { _ = try model.embed(tokenLists: [list], shouldCancel: { false }) } }),
        ]
        if let encoder = model as? EncoderModel {
            modes.append(Mode(name: "batched, \(encoder.batchTokens)-token passes", embed: { _ = try encoder.embed(texts: texts) }))
        } else if model is LlamaModel {
            modes.append(Mode(name: "batched, \(LlamaModel.batchTokens)-token passes",
                              embed: { _ = try model.embed(tokenLists: lists, shouldCancel: { false }) }))
        }
        for _ in 0..<runs {
            for m in modes.indices {
                let (t0, c0) = (BenchCommand.now(), BenchCommand.cpuTime())
                try modes[m].embed()
                modes[m].wall.append(Double(count) / (BenchCommand.now() - t0))
                modes[m].cpu.append(Double(count) / ((BenchCommand.cpuTime() - c0) / Double(threads)))
            }
        }
        let meanTokens = Double(lists.map(\.count).reduce(0, +)) / Double(count)
        for mode in modes {
            let (rate, rateCPU) = (BenchCommand.median(mode.wall), BenchCommand.median(mode.cpu))
            if json {
                let fields = ["\"model\": \"\(model.modelVersion)\"", "\"mode\": \"\(mode.name)\"", "\"threads\": \(threads)",
                              "\"words\": \(perSentence)", "\"tokens_mean\": \(meanTokens)", "\"sentences_per_second\": \(rate)",
                              "\"sentences_per_cpu_second\": \(rateCPU)", "\"kernels\": \"\(MatMul.implementation.rawValue)\""]
                print("{" + fields.joined(separator: ", ") + "}")
            } else {
                print(String(format: "%@ embed, %@: %d threads, %d-word sentences (%.1f tokens): %.0f sentences/s (min %.0f, max %.0f; %.0f per CPU-second), kernels %@",
                             model.modelVersion, mode.name, threads, perSentence, meanTokens, rate, mode.wall.min()!, mode.wall.max()!, rateCPU,
                             MatMul.implementation.rawValue))
            }
        }
    }
}
