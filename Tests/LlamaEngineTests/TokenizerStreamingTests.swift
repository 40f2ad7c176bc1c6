import Testing
@testable import LlamaEngine

@Suite struct TokenizerStreamingTests {
    @Test func deltasHoldOnlyCompleteCharacters() throws {
        let tokenizer = try TokenizerReferenceTests.tokenizer.get()
        let text = "Grüße 😀 from 東京 👩‍👩‍👧 🇫🇷 e\u{301}!"
        let ids = tokenizer.encode(text, addSpecial: false, parseSpecial: true)
        var stream = StreamingDetokenizer(tokenizer: tokenizer)
        var deltas: [String] = []
        for id in ids { deltas.append(stream.append(id)) }
        deltas.append(stream.finish())
        #expect(deltas.joined() == text)
        #expect(deltas.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") })
        // Some tokens end inside a character (the emoji are split into byte tokens).
        #expect(deltas.contains(""))
        #expect(ids.count > deltas.filter { !$0.isEmpty }.count)
    }

    @Test func controlTokensAreHiddenUnlessRendered() throws {
        let tokenizer = try TokenizerReferenceTests.tokenizer.get()
        var hidden = StreamingDetokenizer(tokenizer: tokenizer)
        #expect(hidden.append(2) == "")
        var rendered = StreamingDetokenizer(tokenizer: tokenizer, renderSpecial: true)
        #expect(rendered.append(2) == "<|im_end|>")
    }

    @Test func incompleteTailIsHeldAndBrokenBytesAreNot() {
        // "é" = C3 A9: C3 alone waits for its continuation.
        #expect(StreamingDetokenizer.completePrefixLength([0x41, 0xC3]) == 1)
        #expect(StreamingDetokenizer.completePrefixLength([0x41, 0xC3, 0xA9]) == 3)
        // Three of four bytes of an emoji wait; a byte that can never start a character does not.
        #expect(StreamingDetokenizer.completePrefixLength([0xF0, 0x9F, 0x98]) == 0)
        #expect(StreamingDetokenizer.completePrefixLength([0x41, 0xFF]) == 2)
        #expect(StreamingDetokenizer.completePrefixLength([0x80, 0x80, 0x80, 0x80]) == 4)
    }
}
