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
    /// every check run (printed). Measured: 90 of 12,786 with sets 46 (tuning; none of its 240 good lines taken) and
    /// 47 (held out; one of its 180 good and 74 generic lines taken, not read); 89 of 12,292 with set 45 (tuning; 5 of
    /// its 240 good lines taken: scenes with "lembra" or "como quem escreve", a colon after a clause with a place
    /// name, advice before a colon); 84 of 12,052 with set 44 (held out; none of its 180 good and 83 generic lines taken, not read); 84 of 11,789 with
    /// sets 42 (tuning; none of its 240 good lines taken) and 43 (held out; one of its 180 good lines taken, not
    /// read), the label before a dash (`dashLabel`) taking none;
    /// 83 of 11,277 with set 41 (held out; one of its 179 good lines taken, not read);
    /// 82 of 11,021 with set 40 (held out; one of its 180 good lines taken, not read);
    /// 81 of 10,762 with sets 37 to 39; 75 of 10,027 with sets 35 and 36, none taken by the frames set 35
    /// taught, the six new ones taken by older frames (all of set 35: a child's or a daughter's belief, a neighbour
    /// shouting before a colon, advice before a colon, a shop assistant remembering); 69 of 9,520 with sets 33 and 34, none taken by the frames set 33
    /// taught, the five new ones taken by older frames (two of set 33, a belief that turned out wrong and a
    /// warning in a scene; three of set 34, not read); 64 of 8,984 with sets 29 to 32, none taken by the frames those
    /// sets taught, three released ("…, como quem reza." is no saying), new ones taken by older frames (64 of 7,973 with sets 27 and 28, the four new ones taken by
    /// older frames, none by set 27's; 60 of 7,454 with sets 25 and 26, likewise; 56 of 6,935 with sets 22 to 24, none taken by the frames
    /// those sets added; 50 of 6,175 with set 21; 49 of 5,898 with sets 19 and 20; 47 of 5,387 with sets 16
    /// to 18; 41 of 4,572 before them;
    /// 38 of 3,929 before sets 14 and 15, with sets 12 and 13 and a colon after a clause left to the register unless a
    /// quotation follows; 48 of 3,689 before set 13; 47 of
    /// 3,332 before set 12; 22 of 2,387 before sets 8 and 9). Two forms: advice before a colon
    /// whose words the lead-in rules read as talk to the reader or as a source ("Ponle nombre a tu
    /// bicicleta vieja: …", "Escribe la dirección del sobre con tu mejor letra: …"), and scenes that report
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
        #expect(checked == 12_786)
        #expect(taken.count <= 90)
    }

    /// Measured on the held-out sets (4, 6, 9, 15, 17, 20, 21, 23, 26, 28, 30, 32, 34, 36, 38, 40, 41, 43, 44 and 47): the
    /// rules alone reject 1447 of 2337 leftovers as `promptFragment` and 1989 of 2379 attributions as `attribution`; on
    /// the tuning sets (with sets 42, 45 and 46) 2624/4582 and 5912/7477. Before sets 46 and 47: 1365/2218 and 1892/2259;
    /// tuning 2514/4403 and 5657/7117 (before set 45, 2389/4223 and 5415/6757).
    /// Before set 44: 1277/2098 and 1800/2139. Before the label before a dash (`dashLabel`; 11 tuning
    /// leftovers gained; held out, 1): 1276/2098 and 1800/2139; tuning 2378/4223 and 5415/6757. Before sets 42 and
    /// 43: 1185/1978 and 1699/2019; tuning 2203/3923 and 5231/6457. Before set 41: 1125/1869 and 1604/1900. Before the writer's opinion after the line (`opinionAfterLine`; a remark or
    /// an opinion after a dash is no speaker, nor is a question: 23 tuning leftovers gained from `attribution`; held
    /// out, 2 leftovers no longer read as `attribution`, left to the register): tuning 2180/3923. Before the notes in brackets after the line (`noteInBrackets`; 20 tuning
    /// leftovers gained, 18 of them from `attribution`; held out, 4 leftovers gained and 1 attribution lost to
    /// `promptFragment`): 1121/1869 and 1605/1900; tuning 2160/3923 and 5231/6457. Before set 40: 1050/1758 and
    /// 1504/1780. Before set 39's frames: 1495/1780 held out; tuning 2014/3625
    /// and 4997/6157 without set 39 (1498 and 5002 before the final review of set 37's change took out a group's view
    /// guessed from a noun's ending and "steht" on any thing). Before set 37's frames, with sets 37 and 38: 1051/1758 and 1479/1780;
    /// tuning 2014/3625 and 4806/6157. On sets 4 to 36 before sets 37 and 38: 983/1643 and 1392/1662; tuning
    /// 1922/3446 and 4577/5797. Before set 35's frames, with sets 35 and 36: 981/1643 and 1356/1662;
    /// tuning 1918/3446 and 4356/5797. On sets 4 to 34 before sets 35 and 36: 903/1525 and 1275/1542; tuning
    /// 1823/3266 and 4145/5437. Before set 33's frames, with sets 33 and 34: 898/1525 and
    /// 1271/1542; tuning 1817/3266 and 4064/5437. On sets 4 to 32 before sets 33 and 34: 818/1406 and 1182/1424;
    /// tuning 1720/3087 and 3871/5077. On sets 4 to 28 before sets 29 to 32: 640/1174 and 963/1186;
    /// tuning 1359/2743 and 3173/4366. On sets 4 to 26 before sets 27 and 28: 588/1059 and
    /// 858/1067; tuning 1294/2568 and 2912/4009. Before set 26 and set 25's frames, on sets 4 to 23: 531/943
    /// and 752/951 (737 before the frames of sets 22 and 24; 474/830 and 637/833 before set 23, 417/712 and 540/715 before set
    /// 21); on the tuning sets they were written against, 1222/2392 and 2644/3652 (2532 before those
    /// frames; 1082/2037 and 2089/2934 before sets 22 and 24). On sets 4, 6, 9, 15 and 17 before set 19: 360/595 and 444/597 (431 before set 18). On sets 4, 6, 9 and 15 before set 16:
    /// 297/479 and 331/479; on sets 4, 6 and 9 before set 14: 242/359 and
    /// 232/360 (174 attributions before the verbs of claiming). The register model adds the rest it
    /// catches.
    @Test func theRulesAloneOnTheHeldOutDrafts() throws {
        let leftovers = try caught("held-out", "leftover", by: .promptFragment)
        let attributions = try caught("held-out", "attribution", by: .attribution)
        #expect(leftovers.total == 2337 && attributions.total == 2379)
        #expect(leftovers.caught >= 1447 && attributions.caught >= 1989)
        let tuningLeftovers = try caught("tuning", "leftover", by: .promptFragment)
        let tuningAttributions = try caught("tuning", "attribution", by: .attribution)
        #expect(tuningLeftovers.caught >= 2624 && tuningAttributions.caught >= 5912)
    }
}
