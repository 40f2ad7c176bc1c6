import GuidedJSON
import LlamaEngine
import TandemPluginKit

/// Everything a loaded model file gives the runner: the engine's model (weights mapped), its
/// tokenizer and chat template, and one session whose KV cache is reused across requests (a new
/// request keeps the longest prefix it shares with the previous one, so a growing chat only
/// evaluates its new turns). The guided-decoding vocabulary is built on first use.
final class LoadedLlama: @unchecked Sendable {
    let model: LlamaModel
    let tokenizer: Tokenizer
    let template: ChatTemplate
    let session: LlamaSession
    private var guidedVocabulary: TokenVocabulary?
    private var embeddings: LlamaSession?

    init(path: String, threads: Int?, context: Int) throws(BackendFailure) {
        do {
            let model = try LlamaModel(path: path, threads: threads)
            let tokenizer = try Tokenizer(gguf: model.file)
            guard let source = try model.file.chatTemplate else {
                throw BackendFailure(.badModelFile, "\(path): the file has no tokenizer.chat_template, so a conversation cannot be rendered")
            }
            let bos = tokenizer.bosTokenId.map { String(decoding: tokenizer.piece($0), as: UTF8.self) } ?? ""
            let eos = tokenizer.eosTokenId.map { String(decoding: tokenizer.piece($0), as: UTF8.self) } ?? ""
            template = try ChatTemplate(source: source, bosToken: bos, eosToken: eos)
            self.model = model
            self.tokenizer = tokenizer
        } catch let failure as BackendFailure {
            throw failure
        } catch {
            throw BackendFailure(.badModelFile, "cannot load \(path): \(error)")
        }
        session = LlamaSession(model: model, contextLength: context)
    }

    /// Ends generation: the tokenizer's end-of-generation ids and the model's.
    func isEndOfGeneration(_ id: Int32) -> Bool {
        tokenizer.isEndOfGeneration(id) || model.endOfGenerationTokens.contains(id)
    }

    /// A second session for embeddings, so they leave the chat's cached prefix alone. Its KV
    /// cache is reserved address space; only the pages an input touches become resident.
    func embeddingSession() -> LlamaSession {
        if let embeddings { return embeddings }
        let made = LlamaSession(model: model, contextLength: session.contextLength)
        embeddings = made
        return made
    }

    /// The vocabulary as byte strings for `TokenConstraint`, built once (control tokens empty).
    func vocabularyForGuidance() -> TokenVocabulary {
        if let guidedVocabulary { return guidedVocabulary }
        let count = model.vocabularySize
        var tokens: [[UInt8]] = []
        tokens.reserveCapacity(count)
        var endings: [Int] = []
        for id in 0..<Int32(count) {
            if isEndOfGeneration(id) { endings.append(Int(id)); tokens.append([]); continue }
            tokens.append(tokenizer.isControl(id) ? [] : tokenizer.piece(id, renderSpecial: false))
        }
        let vocabulary = TokenVocabulary(tokens: tokens, endOfGenerationTokens: endings)
        guidedVocabulary = vocabulary
        return vocabulary
    }
}
