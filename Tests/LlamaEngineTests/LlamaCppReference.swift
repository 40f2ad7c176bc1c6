import Foundation
@testable import LlamaEngine

/// One folder of llama.cpp reference data (Tests/Reference/<model>, the formats of its
/// README): greedy paths with their per-step logit gaps, and full-vocabulary prompt logits.
struct LlamaCppReference {
    let folder: String

    struct GreedyLine: Sendable {
        let name: String
        let promptIds: [Int32]
        let outputIds: [Int32]
        /// Per step: reference token and the gap between its top two logits.
        let steps: [(id: Int32, gap: Double)]
    }

    struct LogitsEntry {
        let file: String
        let promptIds: [Int32]
        let logits: [Float]
    }

    func greedyLines() throws -> [GreedyLine] {
        let text = try String(contentsOfFile: folder + "/greedy.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let steps = (o["steps"] as! [[String: Any]]).map { s -> (Int32, Double) in
                let top = s["top_logits"] as! [[Double]]
                return (Int32(s["id"] as! Int), top[0][1] - top[1][1])
            }
            return GreedyLine(
                name: o["name"] as! String, promptIds: (o["prompt_ids"] as! [Int]).map(Int32.init),
                outputIds: (o["output_ids"] as! [Int]).map(Int32.init), steps: steps)
        }
    }

    func logitsEntries() throws -> [LogitsEntry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/logits/index.json"))
        let index = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
        return try index.map { entry in
            let file = entry["file"] as! String
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            return LogitsEntry(
                file: file, promptIds: (entry["prompt_ids"] as! [Int]).map(Int32.init),
                logits: bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) })
        }
    }

    /// The runner's argmax at every step of a greedy line, teacher-forced: the prompt, then the
    /// reference's own output fed back, one pass each.
    static func teacherForcedArgmaxes(_ model: LlamaModel, _ line: GreedyLine) throws -> [Int32] {
        let session = LlamaSession(model: model, contextLength: line.promptIds.count + line.outputIds.count)
        var argmaxes: [Int32] = []
        try session.evaluate(line.promptIds) { _, v in argmaxes.append(Sampler.argmax(v)) }
        let forced = Array(line.outputIds.dropLast())
        if !forced.isEmpty {
            try session.evaluate(forced, outputs: .allLogits) { _, v in argmaxes.append(Sampler.argmax(v)) }
        }
        return argmaxes
    }

    /// The last position's logits for `ids` on a fresh session.
    static func promptLogits(_ model: LlamaModel, _ ids: [Int32]) throws -> [Float] {
        let session = LlamaSession(model: model, contextLength: ids.count)
        var logits: [Float] = []
        try session.evaluate(ids) { _, v in logits = Array(v) }
        return logits
    }
}

/// How far two logit vectors over one vocabulary are apart, in the reference READMEs' terms.
struct LogitAgreement: CustomStringConvertible {
    /// RMS of the difference after removing each vector's mean.
    let centeredRMS: Double
    /// KL(reference ‖ runner) of the two softmaxes, in float64.
    let kl: Double
    /// How many of the reference's five highest ids are among the runner's five.
    let top5Overlap: Int

    init(_ runner: [Float], reference: [Float]) {
        precondition(runner.count == reference.count)
        let n = Double(runner.count)
        let mean = runner.reduce(0.0) { $0 + Double($1) } / n, refMean = reference.reduce(0.0) { $0 + Double($1) } / n
        var squares = 0.0
        for i in runner.indices {
            let delta = (Double(runner[i]) - mean) - (Double(reference[i]) - refMean)
            squares += delta * delta
        }
        centeredRMS = (squares / n).squareRoot()
        func logSoftmax(_ v: [Float]) -> [Double] {
            let m = Double(v.max()!)
            let lse = m + log(v.reduce(0.0) { $0 + exp(Double($1) - m) })
            return v.map { Double($0) - lse }
        }
        let p = logSoftmax(reference), q = logSoftmax(runner)
        kl = zip(p, q).reduce(0.0) { $0 + exp($1.0) * ($1.0 - $1.1) }
        func top5(_ v: [Float]) -> Set<Int> { Set(v.indices.sorted { v[$0] > v[$1] }.prefix(5)) }
        top5Overlap = top5(runner).intersection(top5(reference)).count
    }

    var description: String {
        "centered RMS \(String(format: "%.3f", centeredRMS)), KL \(String(format: "%.4f", kl)), top-5 overlap \(top5Overlap)/5"
    }
}
