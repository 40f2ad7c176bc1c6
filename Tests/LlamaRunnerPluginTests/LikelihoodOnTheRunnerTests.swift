import Foundation
import LlamaEngine
import PluginFixtures
@testable import QuoteLibrary
import Tandem
import Testing

/// `tandem.log_likelihood/1` on tandem.llama: the plugin's answer against the log-softmax of one
/// whole-sequence pass of the engine, and the likelihood judge on the real models against the
/// held-out labelled lines (Sources/QuoteLibrary/README.md, "Judge").
extension RealModelTests { @Suite struct LikelihoodOnTheRunner {
    static let lines = LabelledLines(folder: RunnerPlugin.packageRoot + "/eval/lines")

    /// The judge's scorer straight on a plugin backend (the host's `HostTextScorer` adds the turn
    /// and the availability check).
    struct BackendScorer: TextScorer {
        let backend: PluginBackend
        func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
            if case .unavailable(let reason, let detail, _) = backend.availability(locale: locale) {
                throw BackendFailure(.unavailable, "\(reason.name): \(detail)")
            }
            return try backend.logLikelihood(of: continuation, after: context, cancellation: CancellationToken()).value
        }
    }

    /// log P(tokens[start...] | tokens[..<start]) from one pass over the whole sequence, with a
    /// plain log-softmax.
    static func reference(_ tokens: [Int32], from start: Int, on model: LlamaModel) throws -> Double {
        let session = LlamaSession(model: model, contextLength: tokens.count)
        var total = 0.0
        try session.evaluate(tokens, outputs: .allLogits) { i, logits in
            guard i + 1 >= start, i + 1 < tokens.count else { return }
            let values = logits.map(Double.init)
            let largest = values.max()!
            total += values[Int(tokens[i + 1])] - largest - log(values.reduce(0) { $0 + exp($1 - largest) })
        }
        return total
    }

    @Test(arguments: [RunnerPlugin.modelPath, RealModelTests.BaseModelPrompt.gemmaPath])
    func theAnswerIsTheWholeSequencesLogSoftmaxWhateverWasScoredBefore(path: String) throws {
        let backend = try RunnerPlugin.open(["model": path])
        let model = try LlamaModel(path: path, threads: 1)
        let tokenizer = model.tokenizer
        let bos: [Int32] = tokenizer.addsBos ? [tokenizer.bosTokenId!] : []
        let contexts = ["Shopping list:\n- eggs\n- flour\n- ", "Things to say at a wedding:\n- ", "Shopping list:\n- eggs\n- milk\n- "]
        let continuations = ["butter and a pound of sugar", "congratulations to you both", "butter"]
        // Each context twice, in turns, so that kept sessions are reused, replaced and trimmed.
        for (context, continuation) in zip(contexts + contexts, continuations + continuations.reversed()) {
            let answer = try backend.logLikelihood(of: continuation, after: context, cancellation: CancellationToken())
            let contextTokens = bos + tokenizer.encode(context, addSpecial: false, parseSpecial: false)
            let tokens = bos + tokenizer.encode(context + continuation, addSpecial: false, parseSpecial: false)
            var shared = 0
            while shared < contextTokens.count, contextTokens[shared] == tokens[shared] { shared += 1 }
            let expected = try Self.reference(tokens, from: shared, on: model)
            #expect(answer.tokens == tokens.count - shared)
            #expect(abs(answer.value - expected) <= 1e-3 * max(1, abs(expected)), "\(context.debugDescription) + \(continuation): \(answer.value) vs \(expected)")
        }
        // The context window is a limit, named.
        #expect {
            _ = try backend.logLikelihood(of: String(repeating: "word ", count: 2000), after: "A", cancellation: CancellationToken())
        } throws: { ($0 as? BackendFailure)?.status == .exceededContextWindowSize }
    }

    /// The judge's overall score of every held-out line of `language`: its AUC, and how many good
    /// lines it accepts and generic ones it rejects at the cutoff.
    static func heldOut(_ language: String, on backend: PluginBackend, model: String) async throws -> (auc: Double, good: (Int, Int), generic: (Int, Int)) {
        let judge = LikelihoodJudge(scorer: BackendScorer(backend: backend))
        func overall(_ line: String) async throws -> Double {
            guard case .scores(let scores) = try await judge.judge(draft: line, locale: language) else { throw JudgeError(.malformed, "no scores") }
            return scores.overall
        }
        var good: [Double] = [], generic: [Double] = []
        for line in try lines.heldOut(language, .good) { good.append(try await overall(line)) }
        for line in try lines.heldOut(language, .generic) { generic.append(try await overall(line)) }
        let result = (auc: JudgeCalibration.auc(good: good, generic: generic),
                      good: (good.filter { $0 >= JudgeStep.acceptance }.count, good.count),
                      generic: (generic.filter { $0 < JudgeStep.acceptance }.count, generic.count))
        print("likelihood judge held-out \(model) \(language): AUC \(String(format: "%.3f", result.auc)), good accepted "
              + "\(result.good.0)/\(result.good.1), generic rejected \(result.generic.0)/\(result.generic.1)")
        return result
    }

    /// The held-out lines of eval/dangling in `languages`: (dangling lines the judge's quality
    /// rejects, of all; complete lines it rejects, of all).
    static func heldOutEndings(_ languages: [String], on backend: PluginBackend, model: String) async throws -> (dangling: (Int, Int), complete: (Int, Int)) {
        let judge = LikelihoodJudge(scorer: BackendScorer(backend: backend))
        var dangling = (0, 0), complete = (0, 0)
        for language in languages {
            let rows = try String(contentsOfFile: RunnerPlugin.packageRoot + "/eval/dangling/\(language).tsv", encoding: .utf8).split(separator: "\n")
            for row in rows {
                let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == 3, !LabelledLines.isTuning(fields[2]) else { continue }
                guard case .scores(let scores) = try await judge.judge(draft: fields[2], locale: language) else { throw JudgeError(.malformed, "no scores") }
                let rejected = scores.quality < JudgeStep.acceptance ? 1 : 0
                if fields[0] == "dangling" { dangling = (dangling.0 + rejected, dangling.1 + 1) } else { complete = (complete.0 + rejected, complete.1 + 1) }
            }
        }
        print("likelihood judge ending held-out \(model) \(languages.joined(separator: " ")): dangling rejected \(dangling.0)/\(dangling.1), "
              + "complete rejected \(complete.0)/\(complete.1)")
        return (dangling, complete)
    }

    /// The ending check on SmolLM2 (English) and Gemma (six languages) against the held-out halves of
    /// eval/dangling; measured: SmolLM2 12/13 dangling rejected, 0/9 complete; Gemma 76/79, 0/43.
    @Test func theJudgeRejectsLinesThatStopWhereNoSentenceEnds() async throws {
        let smol = try await Self.heldOutEndings(["en"], on: try RunnerPlugin.open(["threads": "2"]), model: "smollm2")
        #expect(smol.complete.0 == 0 && Double(smol.dangling.0) >= 0.8 * Double(smol.dangling.1))
        let gemma = try await Self.heldOutEndings(["en", "de", "es", "fr", "it", "pt"],
                                                  on: try RunnerPlugin.open(["model": RealModelTests.BaseModelPrompt.gemmaPath, "threads": "2"]),
                                                  model: "gemma")
        #expect(gemma.complete.0 == 0 && Double(gemma.dangling.0) >= 0.9 * Double(gemma.dangling.1))
    }

    /// SmolLM2 (tandem.json's judge, English only) on the English held-out lines; measured AUC
    /// 1.000, 42/42 good accepted and 48/48 generic rejected.
    @Test func theJudgeOnSmolLM2SeparatesTheHeldOutEnglishLines() async throws {
        let result = try await Self.heldOut("en", on: try RunnerPlugin.open(["threads": "2"]), model: "smollm2")
        #expect(result.auc >= 0.9 && Double(result.good.0) >= 0.9 * Double(result.good.1) && Double(result.generic.0) >= 0.9 * Double(result.generic.1))
    }

    /// Gemma 3 270M serves every language; the Portuguese held-out lines here (all six:
    /// `tandem eval --judge`, Sources/QuoteLibrary/README.md, "Judge").
    @Test func theJudgeOnGemmaSeparatesTheHeldOutPortugueseLines() async throws {
        let backend = try RunnerPlugin.open(["model": RealModelTests.BaseModelPrompt.gemmaPath, "threads": "2"])
        let result = try await Self.heldOut("pt", on: backend, model: "gemma")
        #expect(result.auc >= 0.9 && Double(result.good.0) >= 0.9 * Double(result.good.1) && Double(result.generic.0) >= 0.9 * Double(result.generic.1))
    }
} }

/// `tandem eval --judge` and `tandem quote check --judge` through the built binary, with tandem.json's
/// judge (SmolLM2 by likelihood, in a plugin-host child): calibrated in English, trusted there, not
/// in German (it declares English only), and the run says which.
extension RealModelTests { @Suite struct LikelihoodJudgeCLI {
    @Test func theCalibratedJudgeIsTrustedInEnglishAndTheFallbackStandsInElsewhere() throws {
        let folder = try RunnerPlugin.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/tandem.json"
        try TestConfig(routing: .primary("local"), backends: [
            "local": .init(plugin: "tandem.llama", settings: ["model": .string(RunnerPlugin.modelPath), "context": 1024, "threads": 2]),
        ], store: "tandem.sqlite", quote: .init(judgeMethod: "likelihood", wordFrequencies: PackagePaths.models + "/word-frequencies")).write(to: config)
        let lines = RunnerPlugin.packageRoot + "/eval/lines"
        let calibrated = try runBuilt(["--config", config, "eval", "--judge", "--lines", lines, "--locale", "en"])
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        #expect(calibrated.stdout.contains("judge smollm2-135m-instruct-q4_1 (likelihood) in en: AUC 1.000 on 42 good and 48 generic lines (0 unanswered): trusted"),
                "\(calibrated.stdout)")
        let stored = try #require(try JudgeCalibration.load(path: folder + "/" + JudgeCalibration.fileName))
        #expect(stored.judgeModel == "smollm2-135m-instruct-q4_1 (likelihood)" && stored.languages.keys.sorted() == ["en"])

        // A held-out good line and a held-out generic one: the trusted judge decides in English.
        let good = "Oil the squeaky hinge on the garden gate before the neighbours wake up on Saturday."
        let generic = "Never stop believing that your dreams are waiting just around the corner."
        func judgeGate(_ text: String, locale: String) throws -> [String: Any] {
            let outcome = try runBuilt(["--config", config, "quote", "check", text, "--judge", "--locale", locale, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stderr)")
            return try #require((json["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "judge" }, "\(json)")
        }
        let judgedGood = try judgeGate(good, locale: "en")
        #expect(judgedGood["passed"] as? Bool == true && (judgedGood["score"] as? Double ?? 0) >= 6, "\(judgedGood)")
        #expect(judgedGood["reason"] is NSNull, "a trusted judge's verdict carries no fallback note: \(judgedGood)")
        let judgedGeneric = try judgeGate(generic, locale: "en")
        #expect(judgedGeneric["passed"] as? Bool == false && (judgedGeneric["score"] as? Double ?? 10) < 6, "\(judgedGeneric)")
        let german = try judgeGate("Öl das quietschende Gartentor, bevor die Nachbarn am Samstag aufwachen.", locale: "de")
        #expect((german["reason"] as? String ?? "").contains("not trusted in de: its AUC was not measured there"), "\(german)")
    }
} }
