import TandemBridge

/// Which thinking controls a Gemini model family takes (2.5: a budget, 3: a level), checked
/// before a request is sent so a bad combination fails with a clear message instead of a
/// server 400.
enum GeminiThinkingRules {
    struct Rule {
        /// Accepted levels; empty means levels are not supported.
        var levels: [ThinkingLevel]
        /// Accepted budgets (-1 dynamic is listed explicitly); nil means any budget passes.
        var budgets: [ClosedRange<Int>]?
    }

    /// Longest matching prefix wins; models outside every family are passed through unchecked.
    static let rules: [(prefix: String, rule: Rule)] = [
        ("gemini-2.5-flash-lite", Rule(levels: [], budgets: [-1 ... -1, 0...0, 512...24_576])),
        ("gemini-2.5-flash", Rule(levels: [], budgets: [-1 ... -1, 0...24_576])),
        ("gemini-2.5-pro", Rule(levels: [], budgets: [-1 ... -1, 128...32_768])),
        ("gemini-2.5", Rule(levels: [], budgets: nil)),
        ("gemini-3-pro", Rule(levels: [.low, .high], budgets: nil)),
        ("gemini-3.1-pro", Rule(levels: [.low, .medium, .high], budgets: nil)),
        ("gemini-3.7-flash", Rule(levels: [.low, .medium, .high], budgets: nil)),
        ("gemini-3.8-flash", Rule(levels: [.low, .medium, .high], budgets: nil)),
        ("gemini-3", Rule(levels: ThinkingLevel.allCases, budgets: nil)),
    ]

    static func rule(for model: String) -> Rule? {
        rules.filter { model.hasPrefix($0.prefix) }.max(by: { $0.prefix.count < $1.prefix.count })?.rule
    }

    static func check(model: String, level: ThinkingLevel?, budget: Int?) throws(BackendFailure) {
        if level != nil && budget != nil {
            throw BackendFailure(.invalidArgument, "thinking level and thinking budget exclude each other; set one")
        }
        guard let rule = rule(for: model) else { return }
        if let level, !rule.levels.contains(level) {
            if rule.levels.isEmpty {
                throw BackendFailure(.unsupportedOption, "thinking level: \(model) takes a thinking budget, not a level")
            }
            throw BackendFailure(.unsupportedOption, "thinking level \(level.rawValue) is not supported by \(model) (supported: \(rule.levels.map(\.rawValue).joined(separator: ", ")))")
        }
        if let budget, let ranges = rule.budgets, !ranges.contains(where: { $0.contains(budget) }) {
            let text = ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
            throw BackendFailure(.invalidArgument, "thinking budget \(budget) is out of range for \(model) (accepted: \(text.joined(separator: ", ")))")
        }
    }
}
