import Foundation

/// DESIGN §6 step 6: a deterministic 0–10 score; a draft needs ≥ 5.
///
/// Starts at 3, then:
/// - concrete imagery: +1.5 per concrete thing (kettle, bridge, Fenster …), at most +4;
/// - action: +1 per physical action verb, at most +2.5;
/// - emotional specificity: +1 per named specific feeling (relief, Heimweh …), at most +2;
///   −0.5 per vague evaluation (happy, great, beautiful …);
/// - agency: +1.5 when a person acts (I / you / we … together with an action verb);
/// - formulas: −2 per formula shape ("X is the key to", "Life is …", "the secret of");
/// - abstractions: −0.5 per big abstraction (life, dream, journey …), at most −2;
/// - negative anchors: −3 when the draft is close (lexical cosine ≥ 0.8) to a recently rejected
///   draft, −1.5 when it is fairly close (≥ 0.6), so the model cannot resubmit a rejected idea.
public struct DistinctivenessScorer: Sendable {
    public static let acceptance = 5.0

    public struct Breakdown: Codable, Equatable, Sendable {
        public var concrete = 0, actions = 0, specificEmotions = 0, vagueEvaluations = 0, abstractions = 0
        public var formulas = 0
        public var agency = false
        public var anchorSimilarity = 0.0
        public var score = 0.0
    }

    private let anchorEmbedder = LexicalEmbedder()

    public init() {}

    public func score(_ text: String, locale: String, recentRejections: [String] = []) -> Breakdown {
        let language = SupportedLocale.language(of: locale)
        let tokens = QuoteText.phraseKey(text).split(separator: " ").map(String.init)
        func count(_ table: [String: [String]]) -> Int {
            let stems = table[language] ?? table["en"]!
            return tokens.filter { token in stems.contains { Self.matches(token, stem: $0) } }.count
        }
        var breakdown = Breakdown()
        breakdown.concrete = count(DistinctivenessLexicon.concrete)
        breakdown.actions = count(DistinctivenessLexicon.actions)
        breakdown.specificEmotions = count(DistinctivenessLexicon.specificEmotions)
        breakdown.vagueEvaluations = count(DistinctivenessLexicon.vagueEvaluations)
        breakdown.abstractions = count(DistinctivenessLexicon.abstractions)
        let agents = DistinctivenessLexicon.agents[language] ?? []
        breakdown.agency = breakdown.actions > 0 && (tokens.contains(where: agents.contains) || Self.startsWithAction(tokens, language))
        let folded = " " + tokens.joined(separator: " ") + " "
        breakdown.formulas = DistinctivenessLexicon.formulas.filter {
            folded.range(of: $0, options: .regularExpression) != nil
        }.count
        let vector = anchorEmbedder.vector(text)
        breakdown.anchorSimilarity = Double(recentRejections.map { NoveltyGate.cosine(vector, anchorEmbedder.vector($0)) }.max() ?? 0)

        var score = 3.0
        score += min(4, 1.5 * Double(breakdown.concrete))
        score += min(2.5, Double(breakdown.actions))
        score += min(2, Double(breakdown.specificEmotions)) - 0.5 * Double(breakdown.vagueEvaluations)
        score += breakdown.agency ? 1.5 : 0
        score -= 2 * Double(breakdown.formulas)
        score -= min(2, 0.5 * Double(breakdown.abstractions))
        score -= breakdown.anchorSimilarity >= 0.8 ? 3 : breakdown.anchorSimilarity >= 0.6 ? 1.5 : 0
        breakdown.score = min(10, max(0, score))
        return breakdown
    }

    static func result(_ breakdown: Breakdown) -> GateResult {
        breakdown.score >= acceptance ? .pass(.distinctiveness, score: breakdown.score)
            : .fail(.distinctiveness, "score \(breakdown.score) < 5 (concrete \(breakdown.concrete), actions "
                    + "\(breakdown.actions), specific feelings \(breakdown.specificEmotions), formulas \(breakdown.formulas), "
                    + "abstractions \(breakdown.abstractions), anchor similarity "
                    + "\(String(format: "%.2f", breakdown.anchorSimilarity)))", score: breakdown.score)
    }

    /// An imperative ("Carry the key …") makes the reader the agent.
    private static func startsWithAction(_ tokens: [String], _ language: String) -> Bool {
        guard let first = tokens.first, let stems = DistinctivenessLexicon.actions[language] else { return false }
        return stems.contains { matches(first, stem: $0) }
    }

    static func matches(_ token: String, stem: String) -> Bool {
        stem.count <= 3 ? token == stem : token.hasPrefix(stem)
    }
}
