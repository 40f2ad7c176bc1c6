import Foundation
import Testing
@testable import LlamaEngine

/// The pre-tokenizers against their patterns. Expected chunks come from running each pattern
/// (`tokenizer.ggml.pre` as llama.cpp defines it) with a reference regex engine that supports
/// Unicode properties (Python's `regex`); the random-string test below compares thousands more.
@Suite struct TokenizerPreTokenizerTests {
    static let expected: [String: [(String, [String])]] = [
        "gpt2": [
            ("Hello world's 12345 apples!!\n\n  next", ["Hello", " world", "'s", " 12345", " apples", "!!", "\n\n ", " next"]),
            ("I'LL  see\r\n\tyou at 10:30 — ok?", ["I", "'", "LL", " ", " see", "\r\n", "\t", "you", " at", " 10", ":", "30", " —", " ok", "?"]),
            ("x =\t9 and\n\n 5 ½²", ["x", " =", "\t", "9", " and", "\n\n", " 5", " ½²"]),
            ("中文Ж café\u{00A0}x  $+<=>^~| a.b", ["中文Ж", " café", "\u{00A0}", "x", " ", " $+<=>^~|", " a", ".", "b"]),
            ("  lead\n \ntrail   ", [" ", " lead", "\n ", "\n", "trail", "   "]),
        ],
        "llama3": [
            ("Hello world's 12345 apples!!\n\n  next", ["Hello", " world", "'s", " ", "123", "45", " apples", "!!\n\n", " ", " next"]),
            ("I'LL  see\r\n\tyou at 10:30 — ok?", ["I", "'LL", " ", " see", "\r\n", "\tyou", " at", " ", "10", ":", "30", " —", " ok", "?"]),
            ("x =\t9 and\n\n 5 ½²", ["x", " =", "\t", "9", " and", "\n\n", " ", "5", " ", "½²"]),
            ("中文Ж café\u{00A0}x  $+<=>^~| a.b", ["中文Ж", " café", "\u{00A0}x", " ", " $+<=>^~|", " a", ".b"]),
            ("  lead\n \ntrail   ", [" ", " lead", "\n \n", "trail", "   "]),
        ],
        "qwen2": [
            ("Hello world's 12345 apples!!\n\n  next", ["Hello", " world", "'s", " ", "1", "2", "3", "4", "5", " apples", "!!\n\n", " ", " next"]),
            ("I'LL  see\r\n\tyou at 10:30 — ok?", ["I", "'LL", " ", " see", "\r\n", "\tyou", " at", " ", "1", "0", ":", "3", "0", " —", " ok", "?"]),
            ("x =\t9 and\n\n 5 ½²", ["x", " =", "\t", "9", " and", "\n\n", " ", "5", " ", "½", "²"]),
            ("中文Ж café\u{00A0}x  $+<=>^~| a.b", ["中文Ж", " café", "\u{00A0}x", " ", " $+<=>^~|", " a", ".b"]),
            ("  lead\n \ntrail   ", [" ", " lead", "\n \n", "trail", "   "]),
        ],
        "smollm": [
            ("Hello world's 12345 apples!!\n\n  next", ["Hello", " world", "'s", " ", "1", "2", "3", "4", "5", " apples", "!!", "\n\n ", " next"]),
            ("I'LL  see\r\n\tyou at 10:30 — ok?", ["I", "'", "LL", " ", " see", "\r\n", "\t", "you", " at", " ", "1", "0", ":", "3", "0", " —", " ok", "?"]),
            ("x =\t9 and\n\n 5 ½²", ["x", " =", "\t", "9", " and", "\n\n ", "5", " ", "½", "²"]),
            ("中文Ж café\u{00A0}x  $+<=>^~| a.b", ["中文Ж", " café", "\u{00A0}", "x", " ", " $+<=>^~|", " a", ".", "b"]),
            ("  lead\n \ntrail   ", [" ", " lead", "\n ", "\n", "trail", "   "]),
        ],
        "default": [
            ("Hello world's 12345 apples!!\n\n  next", ["Hello", " world", "'", "s", " ", "123", "45", " apples", "!!", "\n\n ", " next"]),
            ("I'LL  see\r\n\tyou at 10:30 — ok?", ["I", "'", "LL", " ", " see", "\r\n", "\t", "you", " at", " ", "10", ":", "30", " ", "—", " ok", "?"]),
            ("x =\t9 and\n\n 5 ½²", ["x", " ", "=", "\t", "9", " and", "\n\n", " ", "5", " ", "½²"]),
            ("中文Ж café\u{00A0}x  $+<=>^~| a.b", ["中文Ж", " café", "\u{00A0}", "x", "  ", "$+<=>^~|", " a", ".", "b"]),
            ("  lead\n \ntrail   ", [" ", " lead", "\n ", "\n", "trail", "   "]),
        ],
    ]

    @Test(arguments: ["gpt2", "llama3", "qwen2", "smollm", "default"])
    func chunksMatchThePattern(name: String) throws {
        let preTokenizer = try PreTokenizer(named: name)
        for (text, chunks) in Self.expected[name]! {
            // Compare code points: Swift's String equality is canonical equivalence.
            #expect(preTokenizer.chunks(of: text).map { Array($0.unicodeScalars) } == chunks.map { Array($0.unicodeScalars) },
                    "\(name): \(text.debugDescription)")
        }
    }

    /// 3,000 random strings per pre-tokenizer, split by the reference regex engine
    /// (scripts/pretokenizer-fixtures.py, which `make test` runs first).
    @Test func randomStringsMatchTheReferenceRegexEngine() throws {
        let path = TestPaths.packageRoot + "/.build/fixtures/pretokenizer/cases.json"
        let cases = try JSONDecoder().decode([[String: PatternCase]].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(cases.count == 3_000)
        var mismatches = 0
        for name in ["gpt2", "llama3", "qwen2", "smollm", "default"] {
            let preTokenizer = try PreTokenizer(named: name)
            for entry in cases {
                guard case .text(let text)? = entry["text"], case .chunks(let chunks)? = entry[name] else {
                    Issue.record("fixture entry without text or \(name)")
                    continue
                }
                if preTokenizer.chunks(of: text).map({ Array($0.unicodeScalars) }) != chunks.map({ Array($0.unicodeScalars) }) {
                    mismatches += 1
                    if mismatches <= 5 { Issue.record("\(name): \(text.debugDescription) -> \(preTokenizer.chunks(of: text))") }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// A fixture field: the input text or one pre-tokenizer's chunks.
    enum PatternCase: Decodable {
        case text(String)
        case chunks([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .chunks(try container.decode([String].self))
            }
        }
    }

    @Test func aliasesSelectTheSamePasses() throws {
        #expect(try PreTokenizer(named: "llama-bpe").chunks(of: "abc 12345") == ["abc", " ", "123", "45"])
        #expect(try PreTokenizer(named: "gpt-2").chunks(of: "abc 12345") == ["abc", " 12345"])
        #expect(try PreTokenizer(named: nil).name == "default")
    }

    @Test func unknownPreTokenizerIsAnErrorNamingIt() {
        #expect(throws: TokenizerError.self) { try PreTokenizer(named: "mystery-pre") }
        do {
            _ = try PreTokenizer(named: "mystery-pre")
        } catch let error as TokenizerError {
            #expect(error.code == .unsupportedPreTokenizer)
            #expect(error.message.contains("'mystery-pre'"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
