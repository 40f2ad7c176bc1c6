import Foundation
import Testing
@testable import QuoteLibrary

/// Prompt leftovers and attributions in all six languages, on the labelled `BadDraftSet`: the
/// tuning half and the held-out half must each be rejected by the expected gate (target 100%
/// per category); the held-out rates are printed.
@Suite("Leftover and attribution gates on the labelled bad drafts")
struct BadDraftGateTests {
    /// Per category: how many drafts of `set` the expected gate rejected, and the misses.
    static func rejections(_ set: [BadDraftSet.Draft]) -> [BadDraftSet.Category: (caught: Int, total: Int, misses: [String])] {
        var result: [BadDraftSet.Category: (caught: Int, total: Int, misses: [String])] = [:]
        for draft in set {
            let failure = DeterministicGate().firstFailure(draft.text, locale: draft.language)
            var entry = result[draft.category] ?? (0, 0, [])
            entry.total += 1
            if failure?.gate == draft.expectedGate {
                entry.caught += 1
            } else {
                entry.misses.append("[\(draft.language)] \(draft.text) → \(failure.map { "\($0.gate.rawValue): \($0.reason ?? "")" } ?? "accepted")")
            }
            result[draft.category] = entry
        }
        return result
    }

    @Test func theTuningHalfIsRejectedByTheExpectedGate() {
        for (category, entry) in Self.rejections(BadDraftSet.tuning) {
            #expect(entry.misses.isEmpty, "\(category.rawValue): \(entry.misses.joined(separator: "\n"))")
        }
    }

    @Test func theHeldOutHalfIsRejectedByTheExpectedGateInEveryLanguage() {
        let results = Self.rejections(BadDraftSet.heldOut)
        #expect(Set(results.keys) == Set(BadDraftSet.Category.allCases))
        for category in BadDraftSet.Category.allCases {
            let entry = results[category]!
            print(String(format: "held-out %@: %d of %d rejected by the expected gate (%.1f%%)", category.rawValue,
                         entry.caught, entry.total, 100 * Double(entry.caught) / Double(entry.total)))
            #expect(entry.misses.isEmpty, "\(category.rawValue): \(entry.misses.joined(separator: "\n"))")
        }
        #expect(Set(BadDraftSet.heldOut.map(\.language)) == Set(SupportedLocale.languages))
    }

    @Test func lookalikeGoodLinesPass() {
        for (language, text) in BadDraftSet.cleanLookalikes {
            let failure = DeterministicGate().firstFailure(text, locale: language)
            #expect(failure == nil, "[\(language)] \(text) → \(failure.map { "\($0.gate.rawValue): \($0.reason ?? "")" } ?? "")")
        }
    }
}
