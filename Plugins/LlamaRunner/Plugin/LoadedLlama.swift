import GuidedJSON
import LlamaEngine
import TandemPluginKit

/// Everything a loaded model file gives the runner: the engine's model (weights mapped), its
/// tokenizer and chat template (nil for a base model whose file has none: its prompt is the
/// conversation's text to continue, `ConversationPrompt`), and one session whose KV cache is reused across requests (a new
/// request keeps the longest prefix it shares with the previous one, so a growing chat only
/// evaluates its new turns). The guided-decoding vocabulary is built on first use.
final class LoadedLlama: @unchecked Sendable {
    let model: LlamaModel
    let tokenizer: Tokenizer
    let template: ChatTemplate?
    let session: LlamaSession
    /// The sessions of `tandem.log_likelihood/1`, apart from the chat's.
    let scorer = ContinuationScorer()
    private var guidedVocabulary: TokenVocabulary?

    init(path: String, threads: Int?, context: Int) throws(BackendFailure) {
        do {
            let model = try LlamaModel(path: path, threads: threads)
            template = try model.file.chatTemplate == nil ? nil : ChatTemplate(gguf: model.file, tokenizer: model.tokenizer)
            self.model = model
            tokenizer = model.tokenizer
        } catch {
            throw BackendFailure(.badModelFile, "cannot load \(path): \(error)")
        }
        session = LlamaSession(model: model, contextLength: context)
    }

    /// Ends generation: the tokenizer's end-of-generation ids and the model's.
    func isEndOfGeneration(_ id: Int32) -> Bool {
        tokenizer.isEndOfGeneration(id) || model.endOfGenerationTokens.contains(id)
    }

    /// The vocabulary as byte strings for `TokenConstraint`, built once (control tokens empty).
    /// A model without an end-of-generation token cannot end a guided document: unsupportedGuide.
    func vocabularyForGuidance() throws(BackendFailure) -> TokenVocabulary {
        if let guidedVocabulary { return guidedVocabulary }
        let count = model.vocabularySize
        var tokens: [[UInt8]] = []
        tokens.reserveCapacity(count)
        var endings: [Int] = []
        for id in 0..<Int32(count) {
            if isEndOfGeneration(id) { endings.append(Int(id)); tokens.append([]); continue }
            tokens.append(tokenizer.isControl(id) ? [] : tokenizer.piece(id, renderSpecial: false))
        }
        let vocabulary: TokenVocabulary
        do {
            vocabulary = try TokenVocabulary(tokens: tokens, endOfGenerationTokens: endings)
        } catch {
            throw BackendFailure(.unsupportedGuide, "\(model.modelVersion) cannot be guided: \(error)")
        }
        guidedVocabulary = vocabulary
        return vocabulary
    }
}
