import Testing
@testable import LlamaEngine

/// The special-token partition on overlapping tokens: longer tokens are cut out first, then
/// shorter ones in what remains; user-defined tokens are cut even when specials are not parsed;
/// control tokens are not cut where they would overlap a plain-text range.
@Suite struct TokenizerSpecialTokenTests {
    // ids: 0 "<a>" control, 1 "<a><b>" control, 2 "b>" user-defined, 3 "x" normal.
    static let splitter = SpecialTokenSplitter(
        tokens: ["<a>", "<a><b>", "b>", "x"], types: [.control, .control, .userDefined, .normal])

    func split(_ text: String, parseSpecial: Bool, plainText: [Range<Int>] = []) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            Self.splitter.split(buffer, parseSpecial: parseSpecial, plainText: plainText).map { fragment in
                switch fragment {
                case .token(let id): return "#\(id)"
                case .text(let range): return String(decoding: bytes[range], as: UTF8.self)
                }
            }
        }
    }

    @Test func longerTokensWinThenShorterOnesSplitTheRest() {
        #expect(split("x<a><b>y<a>b>", parseSpecial: true) == ["x", "#1", "y", "#0", "#2"])
        #expect(split("<a><a><b>", parseSpecial: true) == ["#0", "#1"])
    }

    @Test func userDefinedTokensAreCutEvenWithoutParsing() {
        #expect(split("x<a><b>y<a>b>", parseSpecial: false) == ["x<a><", "#2", "y<a>", "#2"])
        #expect(split("no specials here", parseSpecial: true) == ["no specials here"])
        #expect(split("", parseSpecial: true) == [])
    }

    @Test func controlTokensOverlappingPlainTextAreText() {
        // "x<a><b>y<a>b>": "<a><b>" and the first "<a>" start at 1; plain text 1..<7 keeps both
        // as text, the second "<a>" (8) is outside it, "b>" is user-defined and always cut.
        #expect(split("x<a><b>y<a>b>", parseSpecial: true, plainText: [1..<7]) == ["x<a><", "#2", "y", "#0", "#2"])
        // One shared byte is enough: a token straddling the edge of plain text is text too.
        #expect(split("x<a><b>y<a>b>", parseSpecial: true, plainText: [0..<2]) == ["x<a><", "#2", "y", "#0", "#2"])
        #expect(split("x<a><b>y<a>b>", parseSpecial: true, plainText: [0..<2, 10..<11]) == ["x<a><", "#2", "y<a>", "#2"])
        // Touching is not overlapping: the token right after plain text is still cut.
        #expect(split("x<a><b>y<a>b>", parseSpecial: true, plainText: [0..<1, 7..<8]) == ["x", "#1", "y", "#0", "#2"])
    }
}
