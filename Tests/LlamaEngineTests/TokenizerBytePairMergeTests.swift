import Testing
@testable import LlamaEngine

/// The optimised BPE merge loop (linked list + heap) against the plain quadratic one, on the
/// default model's 48,900 merges.
@Suite struct TokenizerBytePairMergeTests {
    static let encoder: Result<BytePairEncoder, any Error> = Result {
        let vocabulary = try TokenizerVocabulary(gguf: GGUFFile(path: TestPaths.defaultModel))
        return try BytePairEncoder(vocabulary: vocabulary, tokenIds: ByteStringTable(tokens: vocabulary.tokens))
    }

    /// Words the merge loop sees: ordinary and very long words, repeated letters (many equal
    /// ranks, so the leftmost tie rule matters), multi-byte scripts, punctuation runs.
    static func sampleWords() -> [String] {
        var generator = SeededGenerator(seed: 42)
        let pieces = ["the", "ing", "tion", "a", "b", "e", "é", "中", "😀", "!", ".", "-", " ", "0", "ß", "ll", "oo"]
        var words = ["internationalization", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "lllllllllllllll",
                     String(repeating: "abc", count: 400), "Donaudampfschifffahrtsgesellschaftskapitän",
                     "!!!!!!!!!!!!!!!!", "............", " " + String(repeating: "-", count: 64), "中文中文字符"]
        for _ in 0..<400 {
            let count = Int(generator.next() % 24) + 1
            words.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        return words
    }

    @Test func optimisedMergeEqualsReferenceMerge() throws {
        let encoder = try Self.encoder.get()
        var scratch = BytePairMerger.Scratch()
        var differing = 0
        let words = Self.sampleWords()
        // Both strategies of the optimised loop are exercised: short chunks and heap-merged long ones.
        #expect(words.contains { $0.utf8.count <= BytePairMerger.shortChunkLimit })
        #expect(words.filter { $0.utf8.count > BytePairMerger.shortChunkLimit }.count > 20)
        for word in words {
            let initial = Array(word.utf8).withUnsafeBufferPointer { encoder.initialSymbols($0) }
            var optimised = initial
            encoder.merger.merge(&optimised, scratch: &scratch)
            let reference = encoder.merger.mergeReference(initial)
            if optimised != reference { differing += 1 }
            #expect(optimised == reference, "\(word.debugDescription)")
            #expect(optimised.count <= initial.count)
        }
        #expect(differing == 0)
    }
}
