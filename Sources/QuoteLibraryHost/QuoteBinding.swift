import Foundation
import QuoteLibrary
import Tandem

/// The quote pipeline bound to a host: draft on `quote.draft` (else the routed model; the routed
/// secondary takes escalations either way) asked in the `quote.draft_prompt` style, judge on
/// `quote.judge` (else the routed model, in its own conversation) by `quote.judge_method`, embedder on `quote.embedder` (else the
/// model-free `LexicalEmbedder`), readiness from all of them, escalation on the gates of
/// `quote.escalate_on` (default: every gate).
public struct QuoteBinding: Sendable {
    public let readiness: Readiness
    public let writer: DraftWriter
    public let judge: Judge
    public let embedder: Embedder
    /// Every model the binding may call (draft sides, judge sides, embedder), for a caller that
    /// waits for models getting ready first.
    public let models: [LanguageModel]
    public let escalation: EscalationPolicy
    public let distinctiveness: DistinctivenessScorer
    /// The judge model's id, which its calibration is recorded under; with `quote.judge_method`
    /// "likelihood", the id followed by " (likelihood)", since the same model judges differently so.
    public let judgeModelID: String
    /// `judge-calibration.json` next to the config file, when it was measured for this judge model
    /// (`tandem eval --judge`); a calibration of another model does not count.
    public let judgeCalibration: JudgeCalibration?
    /// How drafts are asked for (`quote.draft_prompt`, checked by the config).
    public let draftPrompt: DraftPromptStyle

    /// `routing` overrides the config's routing for the draft (as `respond --mode` does).
    /// `readingCalibration` false leaves the stored calibration unread (nil), for `tandem eval
    /// --judge`, which measures it again: an outdated or corrupt file must not stop that.
    public init(host: TandemHost, routing: TandemConfig.Routing? = nil, readingCalibration: Bool = true) throws(ConfigError) {
        let config = host.config
        let routed = try host.hybridModel(routing: routing)
        let draft = try config.quote.draft.map { id throws(ConfigError) in
            HybridModel(primary: try host.model(id, keyPath: "quote.draft"), secondary: routed.secondary,
                        fallbackPolicy: routed.fallbackPolicy)
        } ?? routed
        let judgeModel = try config.quote.judge.map { id throws(ConfigError) in
            HybridModel(primary: try host.model(id, keyPath: "quote.judge"))
        } ?? routed
        draftPrompt = config.quote.draftPrompt.flatMap(DraftPromptStyle.init(rawValue:)) ?? .instructions
        let embedderModel = try HostEmbedder.configuredModel(host: host)
        models = [draft.primary, draft.secondary, judgeModel.primary, judgeModel.secondary, embedderModel].compactMap { $0 }
        switch config.quote.escalateOn.map(EscalationPolicy.parse) ?? .success(.everyGate) {
        case .success(let policy): escalation = policy
        case .failure(let unknown):
            throw ConfigError(.invalidValue, file: config.file, keyPath: "quote.escalate_on", unknown.description)
        }
        readiness = HostReadiness(draft: draft, judge: judgeModel, embedder: embedderModel)
        writer = HostDraftWriter(model: draft)
        if config.quote.judgeMethod == "likelihood" {
            let scorer = judgeModel.primary
            guard scorer.backend.offersLogLikelihood else {
                throw ConfigError(.invalidValue, file: config.file, keyPath: "quote.judge_method",
                                  "\"likelihood\" needs a judge backend that scores text (tandem.log_likelihood/1); backend \"\(scorer.id)\" "
                                  + "(model \(scorer.info.id)) does not")
            }
            judge = LikelihoodJudge(scorer: HostTextScorer(model: scorer))
            judgeModelID = "\(scorer.info.id) (likelihood)"
        } else {
            judge = HostJudge(model: judgeModel)
            judgeModelID = judgeModel.primary.info.id
        }
        embedder = HostEmbedder.embedder(for: embedderModel)
        distinctiveness = DistinctivenessScorer(frequencies: WordFrequencies(directory: config.wordFrequenciesDirectory))
        let calibrationFile = Self.judgeCalibrationFile(config)
        guard readingCalibration else {
            judgeCalibration = nil
            return
        }
        do {
            judgeCalibration = try JudgeCalibration.load(path: calibrationFile).flatMap { [judgeModelID] in
                $0.judgeModel == judgeModelID ? $0 : nil
            }
        } catch {
            throw ConfigError(.invalidValue, file: calibrationFile, keyPath: "", error.description)
        }
    }

    public static func judgeCalibrationFile(_ config: TandemConfig) -> String {
        (config.directory as NSString).appendingPathComponent(JudgeCalibration.fileName)
    }

    /// The pipeline on `store` with this binding.
    public func pipeline(store: QuoteStore) -> QuotePipeline {
        QuotePipeline(store: store, readiness: readiness, writer: writer, judge: judge, embedder: embedder,
                      distinctiveness: distinctiveness, judgeCalibration: judgeCalibration, escalation: escalation,
                      draftPrompt: draftPrompt)
    }
}
