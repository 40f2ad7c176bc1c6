import Foundation
import JSONModel
import LlamaEngine

/// `score FILE --ids IDS [--top K] [--logits-out F.f32] --json`: evaluates a fixed token
/// sequence in one pass; for every position the top-K next-token candidates (full softmax), and
/// optionally the raw logits after the last position as float32 little-endian.
enum ScoreCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        guard let ids = try args.idsOption("--ids") else { throw UsageError(description: "score needs --ids") }
        let top = try args.intOption("--top", default: 5)
        let logitsOut = try args.option("--logits-out")
        let threads = try args.intOption("-t", "--threads", default: LlamaModel.availableCores)
        _ = args.flag("--json")  // JSON is the only output form
        try args.finish()

        let model = try LlamaModel(path: path, threads: threads)
        let session = LlamaSession(model: model, contextLength: ids.count)
        var positions: [String] = []
        try session.evaluate(ids, outputs: .allLogits) { i, logits in
            let candidates = TopCandidates.of(logits, k: top)
            let items = candidates.map { "{\"id\": \($0.id), \"logit\": \(JSONValue.float($0.logit).jsonText), \"prob\": \(JSONValue.number($0.probability).jsonText)}" }
            positions.append("{\"pos\": \(i), \"top\": [\(items.joined(separator: ", "))]}")
            if i == ids.count - 1, let out = logitsOut {
                let data = Data(buffer: logits)
                guard FileManager.default.createFile(atPath: out, contents: data) else {
                    FileHandle.standardError.write(Data("error: cannot write \(out)\n".utf8))
                    exit(1)
                }
            }
        }
        print("{\"model_version\": \(JSONValue.string(model.modelVersion).jsonText), \"positions\": [\n  \(positions.joined(separator: ",\n  "))\n]}")
    }
}
