/// The bounded deterministic stand-in when the judge is unavailable, refuses or answers garbage
/// (Sources/QuoteLibrary/README.md, "The pipeline", step 5). Every score stays within 1–7, so a
/// fallback can accept a plain good line (overall ≥ `acceptance`) but never rates anything as
/// highly as a real judge may.
///
/// - quality: 4, +1 inside the typical 10–16 words, +1 when no word repeats (besides short
///   function words), +1 with at least one specific word's worth of specificity;
/// - originality: 2 + half the distinctiveness score;
/// - warmth: 4, +1 when a person is addressed or named, +1 with a rare (specific) word;
/// - overall: the mean, rounded to halves.
public enum FallbackJudge {
    public static let ceiling = 7.0
    /// The overall score the fallback accepts at, calibrated on the tuning halves of `eval/lines`
    /// (`FallbackJudgeTests`: the highest cutoff that keeps 97.5% of the good lines reaching the
    /// judge). The model judge's 6 of 10 asked nearly every bonus of a score that stops at 7: an
    /// imperative line without a rare word ("Pour the last of the coffee for the plumber …") gets
    /// warmth 4 and cannot reach it.
    public static let acceptance = 5.5

    public static func scores(_ text: String, distinctiveness: DistinctivenessScorer.Breakdown) -> JudgeScores {
        let words = QuoteText.normalizedKey(text).split(separator: " ")
        let content = words.filter { $0.count > 3 }
        let repeats = content.count - Set(content).count
        var quality = 4.0
        if DeterministicGate.typicalWords.contains(words.count) { quality += 1 }
        if repeats == 0 { quality += 1 }
        if distinctiveness.specificity >= 1 { quality += 1 }
        let originality = 2 + distinctiveness.score / 2
        let warmth: Double = 4 + (distinctiveness.rareWords > 0 ? 1 : 0) + (distinctiveness.agency ? 1 : 0)
        let bounded = [quality, originality, warmth].map { min(ceiling, max(1, $0)) }
        let overall = (bounded.reduce(0, +) / 3 * 2).rounded() / 2
        return JudgeScores(quality: bounded[0], originality: bounded[1], warmth: bounded[2], overall: min(ceiling, overall))
    }
}
