import Tandem

/// What a command does before it asks its models: waits for those getting ready on their own
/// (a pinned model file being hashed, a download under way; `ModelPreparation`), so a first
/// run is served rather than failing with `modelNotReady`. Progress shows on stderr when it is a
/// terminal. The caller's token bounds the wait (its deadline, Ctrl-C).
enum ModelWait {
    static func ready(_ models: [LanguageModel?], locale: String?, cancellation: CancellationToken) async throws(TandemError) {
        var shown = false
        defer { if shown { Terminal.clearProgress() } }
        try await ModelPreparation.wait(for: models, locale: locale, cancellation: cancellation) { progress in
            shown = true
            Terminal.progress("waiting for \(progress.model.id): \(progress.detail)")
        }
    }

    static func ready(_ model: HybridModel, locale: String?, cancellation: CancellationToken) async throws(TandemError) {
        try await ready([model.primary, model.secondary], locale: locale, cancellation: cancellation)
    }
}
