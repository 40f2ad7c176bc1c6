import QuoteLibrary
import Tandem

/// The likelihood judge's model (`quote.judge` with `quote.judge_method: "likelihood"`): a backend
/// offering `tandem.log_likelihood/1` (tandem_abi.h), checked when the binding is made.
struct HostTextScorer: TextScorer {
    let call: BackendCall

    init(model: LanguageModel) { call = BackendCall(languageModel: model, role: "judge backend") }

    func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
        try await call.run(locale: locale) { backend, token throws(BackendFailure) in
            try backend.logLikelihood(of: continuation, after: context, cancellation: token)
        }.value
    }
}
