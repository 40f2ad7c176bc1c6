import Foundation
import JSONModel
import Tandem

/// `tandem embed`: sentence embeddings of the texts from a backend with the embeddings
/// capability.
enum EmbedCommand: Command {
    static let name = "embed"
    static let summary = "print the embedding vector of each text (a local sentence encoder or any backend that embeds)"
    static let arguments = "TEXT... [--backend ID] [--json]"
    static let maxPositionals = Int.max
    static let options: [OptionSpec] = [
        .option("backend", "ID", "the backend that embeds (default: quote.embedder, else the only embeddings-only backend, else the only one that embeds)"),
        .flag("json", "print one JSON object: the backend, its model, the dimensions and the vectors"),
    ]
    static let discussion = """
        Prints one line per text: the vector's numbers separated by spaces, in the order the texts \
        were given. Vectors are L2-normalised, so a dot product is the cosine. An empty text is \
        the zero vector. A local sentence encoder (tandem.llama with an encoder file: the repo \
        config's models/embeddinggemma-300m.Q8_0.gguf, or models/multilingual-e5-small.Q4_0.gguf) \
        puts its embedding_prefix setting (default "query: ") before each text and reads at most \
        the model's context of it (EmbeddingGemma 2048 tokens, e5 512); the \
        rest of a longer text is not read.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let texts = arguments.positionals
        guard !texts.isEmpty else { throw UsageError(name, "no text given (tandem embed TEXT...)") }
        let host = try context.host()
        let model = try embeddingModel(host, requested: arguments.string("backend"))
        let backend = model.backend
        let token = CancellationToken()
        let result = await BlockingExecutor.shared.run(cancelling: token) { () -> Result<[[Float]], BackendFailure> in
            do throws(BackendFailure) { return .success(try backend.embed(texts, cancellation: token)) } catch { return .failure(error) }
        }
        let vectors: [[Float]]
        switch result {
        case .success(let v): vectors = v
        case .failure(let failure):
            let code: TandemError.Code = switch failure.status {
            case .cancelled: .cancelled
            case .unavailable: .unavailable
            default: .backendFailure
            }
            throw TandemError(code, "backend \(model.id) (\(model.info.id)): \(failure.message)", failure: failure)
        }
        guard vectors.count == texts.count else {
            throw TandemError(.decodingFailure, "backend \(model.id) returned \(vectors.count) vectors for \(texts.count) texts")
        }
        if arguments.flag("json") {
            Terminal.out(JSONValue.object([
                "backend": .string(model.id), "model": .string(model.info.id),
                "dimensions": .number(Double(vectors.first?.count ?? 0)),
                "vectors": .array(vectors.map { .array($0.map { .number(Double($0)) }) }),
            ]).jsonText(sortingKeys: true))
        } else {
            for vector in vectors { Terminal.out(vector.map { String($0) }.joined(separator: " ")) }
        }
        return .success
    }

    /// `--backend`, else `quote.embedder`, else the one embeddings-only backend, else the one
    /// backend that embeds; it must have the embeddings capability.
    static func embeddingModel(_ host: TandemHost, requested: String?) throws(ConfigError) -> LanguageModel {
        let config = host.config
        if let id = requested ?? config.quote.embedder {
            let model = try host.model(id, keyPath: requested != nil ? "--backend" : "quote.embedder")
            guard model.info.capabilities.contains(.embeddings) else {
                throw ConfigError(.invalidValue, file: config.file, keyPath: requested != nil ? "--backend" : "quote.embedder",
                                  "backend \"\(id)\" (model \(model.info.id)) has no embeddings capability")
            }
            return model
        }
        let embedding = host.models.values.filter { $0.info.capabilities.contains(.embeddings) }.sorted { $0.id < $1.id }
        let only = embedding.filter { $0.info.capabilities.contains(.embeddingsOnly) }
        let candidates = only.isEmpty ? embedding : only
        guard candidates.count == 1 else {
            let problem = candidates.isEmpty
                ? "no configured backend has the embeddings capability"
                : "several backends embed (\(candidates.map(\.id).joined(separator: ", "))): choose one with --backend ID"
            throw ConfigError(.invalidValue, file: config.file, keyPath: "backends", problem)
        }
        return candidates[0]
    }
}
