import QuoteLibrary
import Tandem

/// One blocking call on a quote backend (the embedder, the likelihood judge): in the backend's
/// turn, off the cooperative pool, after the cheap availability check, so that a missing or
/// unreadable model file, or a language the model does not serve, is named as such and not as a
/// failed call. Cancelling the task cancels the call.
struct BackendCall: Sendable {
    let languageModel: LanguageModel
    /// What the backend is to the pipeline, for errors: "embedding backend", "judge backend".
    let role: String

    func run<T: Sendable>(locale: String? = nil,
                          _ body: @escaping @Sendable (any Backend, CancellationToken) throws(BackendFailure) -> T) async throws -> T {
        try Task.checkCancellation()
        if case .unavailable(let reason, let detail, _) = languageModel.availability(for: locale) {
            throw BackendFailure(.unavailable, "\(role) \(languageModel.id) (\(languageModel.info.id)) is unavailable: "
                                 + "\(reason.name): \(detail)")
        }
        let backend = languageModel.backend
        let result = try await BackendTurns.shared.withTurn(BackendTurns.keys(of: [languageModel])) {
            let token = CancellationToken()
            return await BlockingExecutor.shared.run(cancelling: token) { () -> Result<T, BackendFailure> in
                do throws(BackendFailure) { return .success(try body(backend, token)) } catch { return .failure(error) }
            }
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let failure):
            if failure.status == .cancelled || Task.isCancelled { throw CancellationError() }
            throw failure
        }
    }
}
