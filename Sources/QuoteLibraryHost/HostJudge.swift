import QuoteLibrary
import Tandem

/// The judge (Sources/QuoteLibrary/README.md, "The pipeline", step 5): a fresh conversation on its
/// own model (the config's `quote.judge`, else the draft's routed model), never the draft's
/// transcript. Greedy, so the same draft gets the same scores; guided by the scores schema when
/// every side supports it. `JudgeStep` validates the JSON and stands in with the bounded fallback
/// when this throws.
public struct HostJudge: Judge {
    let call: ModelCall

    public init(model: HybridModel) { call = ModelCall(model: model) }

    static let maximumTokens = 60

    public func judge(draft: String, locale: String) async throws -> JudgeAnswer {
        let guided = call.supportsGuidedJSON
        let request = HybridRequest(
            messages: [.user(JudgePrompt.instructions(draft: draft, locale: locale))],
            responseSchema: guided ? JudgePrompt.jsonSchema : nil, locale: locale,
            options: .hybrid(cloud: GenerationConfig(temperature: 0, maxOutputTokens: Self.maximumTokens),
                             local: GenerationOptions(sampling: .greedy, maximumResponseTokens: Self.maximumTokens)))
        do {
            let output = try await call.run(request)
            return .json(guided ? output.text : DraftOutput.jsonObjectText(in: output.text))
        } catch let error as TandemError {
            if let refusal = ModelCall.refusal(in: error) { return .refused(refusal) }
            throw JudgeError(error.code == .unavailable ? .unavailable : .malformed, error.description)
        }
    }
}
