import Foundation
import JSONModel
import LlamaEngine

/// `complete FILE (--prompt-ids IDS | --prompt TEXT | --chat TEXT) -n N [--greedy | --temp T
/// --top-k K --top-p P --seed S] [--stop TEXT] [--top-probs K] [-t THREADS] [--json]`:
/// generates from a prompt, streaming the text (or, with --json, printing ids, text and the top-K
/// full-softmax probabilities of every step).
enum CompleteCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let promptIds = try args.idsOption("--prompt-ids")
        let promptText = try args.option("--prompt")
        let chatText = try args.option("--chat")
        guard [promptIds != nil, promptText != nil, chatText != nil].filter({ $0 }).count == 1 else {
            throw UsageError(description: "complete needs exactly one of --prompt-ids, --prompt, --chat")
        }
        let maxTokens = try args.intOption("-n", default: 64)
        var sampling = SamplingOptions()
        if args.flag("--greedy") { sampling = .greedy }
        if let t = try args.doubleOption("--temp") { sampling.temperature = Float(t) }
        sampling.topK = try args.intOption("--top-k", default: sampling.topK)
        if let p = try args.doubleOption("--top-p") { sampling.topP = Float(p) }
        sampling.seed = UInt64(try args.intOption("--seed", default: 0))
        var stops: [String] = []
        while let s = try args.option("--stop") { stops.append(s) }
        let topProbs = try args.intOption("--top-probs", default: 0)
        let threads = try args.intOption("-t", "--threads", default: LlamaModel.availableCores)
        let context = try args.intOption("-c", "--ctx-size", default: 4096)
        let json = args.flag("--json")
        try args.finish()

        let model = try LlamaModel(path: path, threads: threads)
        let tokenizer = model.tokenizer
        let prompt: [Int32]
        if let ids = promptIds {
            prompt = ids
        } else if let text = promptText {
            prompt = tokenizer.encode(text, addSpecial: true, parseSpecial: true)
        } else {
            let template = try ChatTemplate(gguf: model.file, tokenizer: tokenizer)
            let rendered = try template.renderMarkingContent(messages: [.init(role: "user", content: chatText!)], addGenerationPrompt: true)
            prompt = tokenizer.encodeChatPrompt(rendered)
        }
        let session = LlamaSession(model: model, contextLength: context)
        let options = GenerationOptions(maxTokens: maxTokens, sampling: sampling, stopSequences: stops, topProbabilities: topProbs)
        let out = FileHandle.standardOutput
        let result = try session.generate(
            promptTokens: prompt, options: options, pieceBytes: { tokenizer.piece($0, renderSpecial: false) },
            onPiece: { piece in if !json { out.write(Data(piece.utf8)) } })
        if !json {
            print("")
            FileHandle.standardError.write(Data("[\(model.modelVersion): \(prompt.count) prompt tokens, \(result.tokens.count) generated, stop: \(result.stopReason.rawValue)]\n".utf8))
            return
        }
        let steps = result.topCandidates.enumerated().map { i, top in
            let items = top.map { "{\"id\": \($0.id), \"logit\": \(JSONValue.float($0.logit).jsonText), \"prob\": \(JSONValue.number($0.probability).jsonText)}" }
            return "{\"id\": \(result.tokens[i]), \"top\": [\(items.joined(separator: ", "))]}"
        }
        print("""
            {"model_version": \(JSONValue.string(model.modelVersion).jsonText), "prompt_ids": \(prompt), "output_ids": \(result.tokens), \
            "text": \(JSONValue.string(result.text).jsonText), "stop_reason": "\(result.stopReason.rawValue)", "steps": [\(steps.joined(separator: ",\n  "))]}
            """)
    }
}
