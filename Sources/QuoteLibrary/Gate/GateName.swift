/// The checks a draft passes through, in the order of Sources/QuoteLibrary/README.md, "The
/// pipeline": the deterministic gate's checks (cheap, no model), then novelty, judge,
/// distinctiveness and taste. Raw values are the stable spellings used in run records,
/// `check --json` output and the evaluation report.
public enum GateName: String, Codable, CaseIterable, Sendable {
    case empty, attribution, promptFragment, wrappingQuotes, markup, sentenceCount, sentenceStart, sentenceEnd, length, language
    case bannedFragment, cliche, unknownWord, danglingWord
    case novelty, judge, distinctiveness, taste
}
