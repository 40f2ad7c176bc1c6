import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

/// The deterministic gate's leftover and attribution rules on eval/drafts, lines written by
/// writers who never saw the rules (Sources/QuoteLibrary/README.md, "Register"): how few good
/// lines are taken for either, and the held-out sets' figures for the rules alone. The register model, which
/// catches what the rules miss, is measured on the real encoder (QuoteSignalsOnTheEncoderTests).
@Suite("Leftover and attribution rules on the drafts written apart")
struct WrittenDraftsGateTests {
    let gate = DeterministicGate()

    /// Per kind: drafts whose first failing check is `expected`, of all.
    func caught(_ half: String, _ kind: String, by expected: GateName) throws -> (caught: Int, total: Int) {
        var result = (caught: 0, total: 0)
        for language in WrittenDrafts.languages {
            for line in try WrittenDrafts.lines(half, language, kind) {
                result.total += 1
                if gate.firstFailure(line, locale: language)?.gate == expected { result.caught += 1 }
            }
        }
        print("rules alone, \(half) \(kind): \(result.caught)/\(result.total) rejected by \(expected.rawValue)")
        return result
    }

    /// The good, generic, odd and fragment lines the rules take for a leftover or an attribution,
    /// every check run (printed). Measured: 48 of 3,689 with set 12 (47 of 3,332 before it; 32 of
    /// 2,861 before sets 10 and 11 and the verbs of claiming; 22 of 2,387 before sets 8 and 9). Two
    /// forms: a colon after a clause of advice
    /// ("Metti il pane raffermo in un sacchetto di carta: domani diventa pangrattato …"; a colon
    /// after a short lead-in rejected such lines before the clause rule too), and scenes that report
    /// someone's saying ("el párroco dice que Dios tiene buen oído", "Marco giura che il suo ragù è
    /// migliore …"), which the writers called scenes and the policy counts as credited sayings.
    @Test func goodLinesAreRarelyTakenForALeftoverOrAnAttribution() throws {
        var checked = 0, taken: [String] = []
        for half in ["tuning", "held-out"] {
            for language in WrittenDrafts.languages {
                for kind in ["good", "generic", "odd", "fragment"] {
                    for line in try WrittenDrafts.lines(half, language, kind) {
                        checked += 1
                        let failures = gate.evaluate(line, locale: language).filter { !$0.passed && [.attribution, .promptFragment].contains($0.gate) }
                        if !failures.isEmpty {
                            taken.append(line)
                            print("rules take [\(language) \(half) \(kind)] \(line) → \(failures.map { "\($0.gate): \($0.reason ?? "")" })")
                        }
                    }
                }
            }
        }
        print("rules take \(taken.count) of \(checked) good, generic, odd and fragment lines")
        #expect(checked == 3_689)
        #expect(taken.count <= 48)
    }

    /// Measured on the held-out sets (4, 6 and 9): the rules alone reject 245 of 359 leftovers as
    /// `promptFragment` and 233 of 360 attributions as `attribution` (229 before set 12's frames,
    /// 174 before the verbs of claiming; the register model adds the rest it catches); on the tuning
    /// sets they were written against, 708/1138 and 1013/1499.
    @Test func theRulesAloneOnTheHeldOutDrafts() throws {
        let leftovers = try caught("held-out", "leftover", by: .promptFragment)
        let attributions = try caught("held-out", "attribution", by: .attribution)
        #expect(leftovers.total == 359 && attributions.total == 360)
        #expect(leftovers.caught >= 245 && attributions.caught >= 233)
        let tuningLeftovers = try caught("tuning", "leftover", by: .promptFragment)
        let tuningAttributions = try caught("tuning", "attribution", by: .attribution)
        #expect(tuningLeftovers.caught >= 708 && tuningAttributions.caught >= 1013)
    }
}
