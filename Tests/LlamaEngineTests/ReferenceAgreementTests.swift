import Foundation
import Testing
@testable import LlamaEngine

/// The forward pass on the real model against llama.cpp's reference data (tolerances from the
/// reference README): prompt logits, and teacher-forced greedy steps.
@Suite(.serialized) struct ReferenceAgreementTests {
    static let model: LlamaModel = try! LlamaModel(path: TestPaths.defaultModel)
    static let reference = LlamaCppReference(folder: TestPaths.reference)

    static func greedyLines() throws -> [LlamaCppReference.GreedyLine] { try reference.greedyLines() }

    @Test func promptLogitsAgreeWithLlamaCpp() throws {
        let entries = try Self.reference.logitsEntries()
        #expect(entries.count == 3)
        for entry in entries {
            let logits = try LlamaCppReference.promptLogits(Self.model, entry.promptIds)
            try #require(logits.count == entry.logits.count)
            let agreement = LogitAgreement(logits, reference: entry.logits)
            print("\(entry.file): \(agreement)")
            #expect(agreement.centeredRMS <= 0.25, "\(entry.file): \(agreement)")
            #expect(agreement.top5Overlap >= 4, "\(entry.file): \(agreement)")
        }
    }

    @Test func teacherForcedGreedyAgreesWhereverTheReferenceGapIsClear() throws {
        let lines = try Self.greedyLines()
        #expect(lines.count == 10)
        var checked = 0, mismatchesOnNearTies = 0
        for line in lines {
            let argmaxes = try LlamaCppReference.teacherForcedArgmaxes(Self.model, line)
            #expect(argmaxes.count == line.steps.count)
            for (i, step) in line.steps.enumerated() where i < argmaxes.count {
                if step.gap >= 0.4 {
                    checked += 1
                    #expect(argmaxes[i] == step.id, "\(line.name) step \(i): \(argmaxes[i]) vs reference \(step.id) (gap \(step.gap))")
                } else if argmaxes[i] != step.id {
                    mismatchesOnNearTies += 1
                }
            }
        }
        print("teacher-forced: \(checked) clear steps checked, \(mismatchesOnNearTies) differences on near-ties (gap < 0.4)")
        #expect(checked > 300)
    }
}
