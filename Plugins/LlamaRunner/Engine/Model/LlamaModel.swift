import Foundation

/// A loaded llama-family model: its file (weights mapped, not copied), shape, tensors, tokenizer
/// and the thread pool its sessions compute on. Sessions of one model take turns on the pool.
public final class LlamaModel: @unchecked Sendable {
    public let file: GGUFFile
    public let hyperparameters: LlamaHyperparameters
    public let tokenizer: Tokenizer
    public let modelVersion: String
    public let vocabularySize: Int
    /// Tokens that end a generation: end of text and end of turn.
    public let endOfGenerationTokens: Set<Int32>
    let weights: LlamaWeights
    let pool: ThreadPool
    private var computeLock = pthread_mutex_t()

    public var contextLength: Int { hyperparameters.contextLength }
    public var threads: Int { pool.threads }

    /// Loads the model. `threads` defaults to every core the process may use.
    public convenience init(path: String, threads: Int? = nil) throws(GGUFError) {
        try self.init(file: GGUFFile(path: path), threads: threads)
    }

    /// Checks the whole file (`CheckedModel`) before anything is built from it.
    public convenience init(file: GGUFFile, threads: Int? = nil) throws(GGUFError) {
        try self.init(checked: CheckedModel(file: file), threads: threads)
    }

    public init(checked: CheckedModel<LlamaHyperparameters>, threads: Int? = nil) throws(GGUFError) {
        file = checked.file
        hyperparameters = checked.hyperparameters
        tokenizer = checked.tokenizer
        weights = LlamaWeights(checked)
        vocabularySize = tokenizer.vocabularySize
        modelVersion = ModelVersion.make(path: file.path, fileType: try file.integer("general.file_type"))
        endOfGenerationTokens = try Self.endOfGenerationTokens(file, tokenizer)
        // Last: nothing after this can fail, so a refused file never starts threads.
        pool = ThreadPool(threads: threads ?? Self.availableCores)
        pthread_mutex_init(&computeLock, nil)
    }

    deinit { pthread_mutex_destroy(&computeLock) }

    /// Cores this process may run on (respects CPU affinity and container limits).
    public static var availableCores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// What a host needs to know before loading: checks the file as a load does
    /// (`CheckedModel`), without converting weights or starting threads.
    public static func probe(path: String) throws(GGUFError) -> ModelProbe {
        let checked = try CheckedModel<LlamaHyperparameters>(file: GGUFFile(path: path))
        let file = checked.file, hp = checked.hyperparameters
        let languages = (try file.array("general.languages") ?? []).compactMap(\.string)
        return ModelProbe(
            architecture: hp.architecture, modelVersion: ModelVersion.make(path: path, fileType: try file.integer("general.file_type")),
            contextLength: hp.contextLength, languages: languages, fileBytes: file.mapping.size)
    }

    /// Serialises use of the thread pool between sessions.
    func withCompute<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&computeLock)
        defer { pthread_mutex_unlock(&computeLock) }
        return try body()
    }

    /// The tokenizer's end-of-generation tokens, and the file's EOM id (the check put every
    /// `*_token_id` in range).
    private static func endOfGenerationTokens(_ file: GGUFFile, _ tokenizer: Tokenizer) throws(GGUFError) -> Set<Int32> {
        var ids = tokenizer.endOfGeneration
        if let id = try file.integer("tokenizer.ggml.eom_token_id") { ids.insert(Int32(id)) }
        return ids
    }
}

/// The header facts `LlamaModel.probe` returns.
public struct ModelProbe: Sendable, Equatable {
    public let architecture: String
    public let modelVersion: String
    public let contextLength: Int
    /// `general.languages` (empty when the file does not declare any).
    public let languages: [String]
    public let fileBytes: Int
}
