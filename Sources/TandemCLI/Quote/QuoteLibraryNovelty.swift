import Foundation
import QuoteLibrary
import Synchronization
import QuoteLibraryHost
import Tandem

/// What the commands that compare with the library share (check, generate, add, import): the
/// configured embedder (loading plugins only when `quote.embedder` is set), and the library
/// embedded for it before anything is compared, with progress on stderr.
extension CommandContext {
    /// The embedder, once its model is ready (a pinned file being checked is waited for).
    func noveltyEmbedder(_ config: TandemConfig) async throws -> Embedder {
        guard config.quote.embedder != nil else { return LexicalEmbedder() }
        let model = try HostEmbedder.configuredModel(host: try host())
        try await waitForModels([model], locale: nil)
        return HostEmbedder.embedder(for: model)
    }

    /// Waits, interruptibly and without a deadline, until `models` are ready.
    func waitForModels(_ models: [LanguageModel?], locale: String?) async throws {
        try await CancellableGeneration.run(timeout: nil) { token in
            try await ModelWait.ready(models, locale: locale, cancellation: token)
        }
    }

    /// A writing connection when the library exists and the file allows it (vectors it lacks
    /// are stored), else a reader's store: the file read-only, or the bundled catalog in memory
    /// when there is no library (a check never creates one). Vectors a reader lacks are
    /// computed for this run only, and the verdict says so.
    func libraryForNovelty(_ config: TandemConfig) throws -> QuoteStore {
        guard FileManager.default.fileExists(atPath: try libraryPath(config)) else { return try readLibrary() }
        do {
            return try writeLibrary(config)
        } catch let error as StoreError where error.code == .readOnly {
            return try readLibrary()
        }
    }
}

enum LibraryEmbeddingProgress {
    /// Says once what is being embedded and why (a new library, or a model changed since its
    /// vectors were stored), then a progress line per batch when stderr is a terminal.
    static func reporter(store: QuoteStore, model: String) -> LibraryEmbedding.Progress {
        let others = ((try? store.embeddingModels()) ?? []).filter { $0.model != model }.map(\.model)
        let said = FirstCall()
        return { done, total in
            if said.isFirst() {
                let why = others.isEmpty ? "" : " (its vectors are of \(Set(others).sorted().joined(separator: ", ")))"
                Terminal.log("embedding \(total) stored quotes with \(model)\(why)")
            }
            Terminal.progress("embedding the library with \(model): \(done)/\(total)")
            if done == total { Terminal.clearProgress() }
        }
    }

    /// Embeds what the library lacks for `embedder` before a command's budget starts.
    static func prepare(store: QuoteStore, embedder: Embedder) async throws {
        try await LibraryEmbedding.prepare(store: store, embedder: embedder,
                                           progress: reporter(store: store, model: embedder.model))
    }
}

/// True on the first call only (the progress callback may run on any thread).
private final class FirstCall: Sendable {
    private let called = Mutex(false)

    func isFirst() -> Bool { called.withLock { seen in defer { seen = true }; return !seen } }
}
