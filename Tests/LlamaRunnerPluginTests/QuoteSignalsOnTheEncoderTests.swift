import Foundation
import QuoteLibrary
import Tandem
import Testing

/// The quote library's learned decisions on the vectors tandem.llama itself computes (they were
/// fitted on the model's own C engine by scripts/novelty-calibration.py and
/// scripts/taste-model.py): novelty's threshold and paraphrase decision on the held-out pairs of
/// eval/novelty, and the taste model on the held-out lines of eval/lines, per language.
@Suite(.serialized) struct QuoteSignalsOnTheEncoderTests {
    static let root = RunnerPlugin.packageRoot
    static let languages = ["en", "de", "es", "fr", "it", "pt"]

    static func embed(_ texts: [String]) throws -> [String: [Float]] {
        let unique = Array(Set(texts)).sorted()
        let vectors = try EncoderBackendTests.shared.get().embed(unique, cancellation: CancellationToken())
        return Dictionary(uniqueKeysWithValues: zip(unique, vectors))
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float { EncoderBackendTests.cosine(a, b) }

    @Test func heldOutNoveltyPairsPerLanguage() throws {
        let model = try EncoderBackendTests.shared.get().info.id
        let calibration = try #require(NoveltyCalibration.measured[model])
        let decision = try #require(calibration.paraphrase)
        var caught: [String: [String: (Int, Int)]] = [:]
        for language in Self.languages {
            let text = try String(contentsOfFile: Self.root + "/eval/novelty/\(language).tsv", encoding: .utf8)
            let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
            // Odd rows tune, even rows are held out (the script's split); unrelated: the distinct
            // line two rows down.
            let held = rows.enumerated().filter { ($0.offset + 1) % 2 == 0 }
            let vectors = try Self.embed(rows.flatMap { $0 })
            for (offset, row) in held {
                var pairs = zip(["near_duplicate", "paraphrase", "distinct"], row[1...]).map { ($0, $1) }
                if offset + 2 < rows.count { pairs.append(("unrelated", rows[offset + 2][3])) }
                for (kind, other) in pairs {
                    let similarity = Self.cosine(vectors[row[0]]!, vectors[other]!)
                    let hit = similarity >= calibration.threshold || decision.isParaphrase(cosine: similarity, row[0], other)
                    let (n, total) = caught[language, default: [:]][kind, default: (0, 0)]
                    caught[language, default: [:]][kind] = (n + (hit ? 1 : 0), total + 1)
                }
            }
        }
        func rate(_ kind: String, _ languages: [String]) -> Double {
            let counts = languages.compactMap { caught[$0]?[kind] }
            return Double(counts.map(\.0).reduce(0, +)) / Double(counts.map(\.1).reduce(0, +))
        }
        for language in Self.languages {
            print("novelty held-out \(language): " + caught[language]!.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value.0)/\($0.value.1)" }.joined(separator: ", "))
        }
        let all = Self.languages
        print("novelty held-out, all: near-duplicates \(rate("near_duplicate", all)), paraphrases \(rate("paraphrase", all)), "
              + "distinct \(rate("distinct", all)), unrelated \(rate("unrelated", all))")
        // The figures the script measured on the reference engine's vectors, within 2 points
        // (the two engines agree at cosine ≥ 0.99, not exactly).
        #expect(rate("near_duplicate", all) >= calibration.heldOutNearDuplicatesCaught - 0.02)
        #expect(rate("paraphrase", all) >= calibration.heldOutParaphrasesCaught - 0.02)
        #expect(rate("distinct", all) <= max(calibration.heldOutFalseAlarms + 0.02, 0.05))
        #expect(rate("unrelated", all) <= 0.02)
    }

    @Test func heldOutTasteLinesPerLanguage() throws {
        let model = try EncoderBackendTests.shared.get().info.id
        let taste = try #require(TasteModel.measured[model])
        let lines = LabelledLines(folder: Self.root + "/eval/lines")
        var right = 0, total = 0
        var good: [Double] = [], generic: [Double] = []
        for language in Self.languages {
            let goodLines = try lines.heldOut(language, .good), genericLines = try lines.heldOut(language, .generic)
            let vectors = try Self.embed(goodLines + genericLines)
            let goodOdds = goodLines.map { taste.logOdds(vectors[$0]!) }
            let genericOdds = genericLines.map { taste.logOdds(vectors[$0]!) }
            let accepted = goodOdds.filter { $0 >= taste.cutoff }.count, rejected = genericOdds.filter { $0 < taste.cutoff }.count
            print("taste held-out \(language): AUC \(String(format: "%.3f", Self.auc(goodOdds, genericOdds))), "
                  + "good accepted \(accepted)/\(goodOdds.count), generic rejected \(rejected)/\(genericOdds.count)")
            right += accepted + rejected
            total += goodOdds.count + genericOdds.count
            good += goodOdds
            generic += genericOdds
        }
        let auc = Self.auc(good, generic), accuracy = Double(right) / Double(total)
        print("taste held-out, all: AUC \(auc), accuracy \(accuracy) on \(total) lines")
        #expect(total == taste.heldOutLines)
        #expect(auc >= taste.heldOutAUC - 0.02)
        #expect(accuracy >= taste.heldOutAccuracy - 0.02)
    }

    static func auc(_ good: [Double], _ generic: [Double]) -> Double {
        var wins = 0.0
        for g in good { for b in generic { wins += g > b ? 1 : g == b ? 0.5 : 0 } }
        return wins / Double(good.count * generic.count)
    }
}
