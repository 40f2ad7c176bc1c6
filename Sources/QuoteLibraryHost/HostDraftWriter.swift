import Foundation
import QuoteLibrary
import Tandem

/// Writes drafts on the configured routed model (Sources/QuoteLibrary/README.md, "The pipeline",
/// step 2): temperature 0.7, at most 64 tokens, the request's seed, and the `{"quote": …}` response
/// schema when every side that may serve supports guided output (otherwise the instructions ask for
/// that object and `DraftOutput` reads it). Partial text goes to `partial` as it streams; it is
/// never stored. A request for the secondary (an escalation) goes to the secondary alone.
public struct HostDraftWriter: DraftWriter {
    let model: HybridModel

    public init(model: HybridModel) { self.model = model }

    /// Top-p applies when a seed is given: the local side needs a random sampling mode to seed.
    static let seededTopP = 0.95
    static let unguidedFormat = #" Answer only with a JSON object of the form {"quote": "your sentence"}."#

    public func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
        let call = try ModelCall(model: side(request.side))
        let guided = call.supportsGuidedJSON
        let local = GenerationOptions(sampling: request.seed.map { .random(probabilityThreshold: Self.seededTopP, seed: $0) },
                                      temperature: request.temperature, maximumResponseTokens: request.maximumTokens)
        let cloud = GenerationConfig(temperature: Float(request.temperature), maxOutputTokens: request.maximumTokens)
        let hybrid = HybridRequest(
            // Few-shot examples already show the object; an instruction there would be continued as text.
            messages: [.user(request.instructions + (guided || request.style == .fewShot ? "" : Self.unguidedFormat))],
            responseSchema: guided ? DraftPrompt.jsonSchema : nil, locale: request.locale,
            options: .hybrid(cloud: cloud, local: local))
        do {
            let output = try await call.run(hybrid) { text in partial(DraftOutput.partialSentence(in: text)) }
            let text = guided ? output.text : DraftOutput.jsonObjectText(in: output.text)
            return .draft(text: DraftOutput.sentence(in: text), modelVersion: output.modelVersion,
                          servedBy: output.servedBy == model.primary.id && request.side != .secondary ? .primary : .secondary)
        } catch let error as TandemError {
            if let refusal = ModelCall.refusal(in: error) { return .refused(reason: refusal, modelVersion: nil) }
            if error.code == .unavailable || error.code == .unsupportedRequest {
                throw DraftError(.unavailable, error.description)
            }
            throw DraftError(.failed, error.description)
        }
    }

    /// The model a request names: the routed pair, or its secondary alone.
    private func side(_ side: DraftSide?) throws -> HybridModel {
        guard side == .secondary else { return model }
        guard let secondary = model.secondary else {
            throw DraftError(.unavailable, "an escalation asked for the secondary, and none is configured")
        }
        return HybridModel(primary: secondary, fallbackPolicy: model.fallbackPolicy)
    }
}
