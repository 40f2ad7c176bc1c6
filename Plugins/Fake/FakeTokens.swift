/// The fake's deterministic "tokenizer": word pieces. Each piece is a run of non-space
/// characters with the whitespace before it, so the pieces concatenate back to the text exactly
/// ("Hello big world" -> "Hello", " big", " world").
enum FakeTokens {
    static func pieces(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inWord = false
        for character in text {
            if character.isWhitespace {
                if inWord {
                    pieces.append(current)
                    current = ""
                    inWord = false
                }
            } else {
                inWord = true
            }
            current.append(character)
        }
        if !current.isEmpty {
            // Trailing whitespace belongs to the last word, so nothing is lost.
            if !inWord, let last = pieces.popLast() { current = last + current }
            pieces.append(current)
        }
        return pieces
    }

    static func count(_ text: String) -> Int { pieces(text).count }
}
