import Foundation
import Testing
@testable import LlamaEngine

/// The tokenizer of the default model against llama.cpp's output (Tests/Reference/smollm2).
@Suite struct TokenizerReferenceTests {
    static let tokenizer: Result<Tokenizer, any Error> = Result {
        try Tokenizer(gguf: GGUFFile(path: TestPaths.defaultModel))
    }

    struct TokenizeLine: Decodable {
        var text: String
        var ids: [Int32]
        var category: String
    }

    struct GreedyLine: Decodable {
        struct Message: Decodable {
            var role: String
            var content: String
        }
        var name: String
        var messages: [Message]
        var rendered: String
        var prompt_ids: [Int32]
    }

    static func lines<T: Decodable>(_ file: String, as type: T.Type) throws -> [T] {
        let data = try String(contentsOfFile: TestPaths.reference + "/" + file, encoding: .utf8)
        return try data.split(separator: "\n").map { try JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }

    @Test func defaultModelUsesTheSmolLMPreTokenizer() throws {
        let tokenizer = try Self.tokenizer.get()
        #expect(tokenizer.kind == .bytePairEncoding)
        #expect(tokenizer.preTokenizerName == "smollm")
        #expect(tokenizer.vocabularySize == 49152)
        #expect(tokenizer.addsBos == false)
        #expect(tokenizer.isEndOfGeneration(2))  // <|im_end|>
        #expect(tokenizer.isEndOfGeneration(0))  // <|endoftext|>
        #expect(!tokenizer.isEndOfGeneration(1))
    }

    @Test func everyTokenizeLineMatchesLlamaCppIdForId() throws {
        let tokenizer = try Self.tokenizer.get()
        let lines = try Self.lines("tokenize.jsonl", as: TokenizeLine.self)
        #expect(lines.count == 47)
        for line in lines {
            let ids = tokenizer.encode(line.text, addSpecial: false, parseSpecial: true)
            #expect(ids == line.ids, "\(line.category): \(line.text.debugDescription)")
        }
    }

    @Test func everyTokenizeLineDetokenizesToItsText() throws {
        let tokenizer = try Self.tokenizer.get()
        for line in try Self.lines("tokenize.jsonl", as: TokenizeLine.self) {
            #expect(try tokenizer.decode(line.ids) == line.text, "\(line.category)")
        }
    }

    @Test func everyGreedyPromptTokenizesToItsPromptIds() throws {
        let tokenizer = try Self.tokenizer.get()
        let lines = try Self.lines("greedy.jsonl", as: GreedyLine.self)
        #expect(lines.count == 10)
        for line in lines {
            #expect(tokenizer.encode(line.rendered, addSpecial: false, parseSpecial: true) == line.prompt_ids, "\(line.name)")
            #expect(tokenizer.encodeChatPrompt(ChatTemplate.Rendering(text: line.rendered, contentRanges: [])) == line.prompt_ids, "\(line.name)")
            #expect(try tokenizer.decode(line.prompt_ids) == line.rendered, "\(line.name)")
        }
    }

    @Test func specialTokensAreTextWhenNotParsed() throws {
        let tokenizer = try Self.tokenizer.get()
        let ids = tokenizer.encode("<|im_start|>user", addSpecial: false, parseSpecial: false)
        #expect(!ids.contains(1))
        #expect(try tokenizer.decode(ids) == "<|im_start|>user")
        #expect(tokenizer.encode("<|im_start|>user", addSpecial: false, parseSpecial: true).first == 1)
    }

    @Test func outOfRangeIdsAreAnErrorNamingTheId() throws {
        let tokenizer = try Self.tokenizer.get()
        #expect(throws: TokenizerError(.tokenOutOfRange, "token id 49152 at position 1 is outside the vocabulary of 49152 tokens")) {
            try tokenizer.decode([5, 49152])
        }
    }
}

/// Byte-level BPE spells every byte, so any text survives encode → decode unchanged.
@Suite struct TokenizerRoundTripTests {
    @Test func randomTextRoundTrips() throws {
        let tokenizer = try TokenizerReferenceTests.tokenizer.get()
        var generator = SeededGenerator(seed: 99)
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x09...0x0D, 0xA0...0x24F, 0x300...0x36F, 0x400...0x4FF,
                                             0x900...0x97F, 0x3040...0x30FF, 0x4E00...0x4FFF, 0xAC00...0xAC7F,
                                             0x1F300...0x1F64F, 0x1F1E6...0x1F1FF, 0x2000...0x206F]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 60) {
                let range = ranges[Int(generator.next() % UInt64(ranges.count))]
                if let scalar = Unicode.Scalar(range.lowerBound + UInt32(generator.next() % UInt64(range.count))) {
                    text.append(scalar)
                }
            }
            if generator.next() % 4 == 0 { text.append(contentsOf: "<|im_end|>".unicodeScalars) }
            let string = String(text)
            for parseSpecial in [false, true] {
                let ids = tokenizer.encode(string, addSpecial: false, parseSpecial: parseSpecial)
                #expect(try tokenizer.decodeBytes(ids) == Array(string.utf8), "\(string.debugDescription)")
            }
        }
    }
}
