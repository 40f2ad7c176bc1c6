import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

/// A base model shown example lines hands them back (Sources/QuoteLibrary/README.md, "Draft
/// prompt"); the gate's promptFragment check rejects a draft that copies one, and only then.
@Suite("A draft that copies the prompt's example")
struct ExampleEchoTests {
    static let example = "Climb the hill behind the school at sunset and name the roofs you can see."
    static let gate = DeterministicGate()

    static func failure(_ draft: String, examples: [String] = [example]) -> GateResult? {
        gate.evaluate(draft, locale: "en", examples: examples).first { $0.gate == .promptFragment && !$0.passed }
    }

    @Test(arguments: [
        // verbatim, with case and punctuation changed
        "climb the hill behind the school at sunset, and name the roofs you can see!",
        // one word replaced: a run of nine words is left
        "Climb the hill behind the church at sunset and name the roofs you can see.",
        // five words in a row inside a new line
        "Grandma says the school at sunset and its quiet yard belong to the cats.",
        // most words in the example's order, none five in a row
        "Climb a hill behind this school near sunset, name some roofs you see.",
    ])
    func aCopyIsRejectedAndNamesTheExample(draft: String) throws {
        let failure = try #require(Self.failure(draft), "\(draft)")
        #expect(failure.reason?.contains("copies the prompt's example \"\(Self.example)\"") == true, "\(failure)")
    }

    @Test func aLineOfItsOwnOnTheSameSceneIsNotACopy() {
        let own = "Race your brother up the hill behind the old school and count the chimneys at dusk."
        #expect(Self.failure(own) == nil)
        #expect(Self.failure(Self.example, examples: []) == nil, "without examples, nothing to copy")
    }

    /// The cutoffs' evidence: no held-out line of eval/lines, written on its own, reaches either
    /// against any line of the few-shot pool of its language.
    @Test(arguments: SupportedLocale.languages.sorted())
    func noHeldOutLineCountsAsACopyOfThePool(language: String) throws {
        let labelled = LabelledLines(folder: PackagePaths.root + "/eval/lines")
        let pool = try #require(DraftPrompt.fewShotPool[language])
        var copies: [String] = []
        for kind in LabelledLines.Kind.allCases {
            for line in try labelled.heldOut(language, kind) {
                if let echo = ExampleEcho.copied(line, from: pool) { copies.append("\(line) ~ \(echo)") }
            }
        }
        #expect(copies.isEmpty, "\(copies.joined(separator: "\n"))")
    }
}
