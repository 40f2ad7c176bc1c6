import GuidedJSON

/// A BPE-like vocabulary for tests and benchmarks: every single byte (so any document can be
/// spelled), JSON punctuation runs, digits, words with and without a leading space, multi-byte
/// characters whole and split, escapes, plus an empty special token and an end token.
enum SyntheticVocabulary {
    static let endToken = "<|im_end|>"

    /// Returns the vocabulary and the id of the end-of-generation token.
    static func make(size: Int, seed: UInt64) -> (tokens: [[UInt8]], end: Int) {
        var random = SplitMix64(seed: seed)
        var tokens: [[UInt8]] = [[]]  // id 0: a special token with no text
        tokens.append(Array(endToken.utf8))
        for byte in 0...255 { tokens.append([UInt8(byte)]) }
        let fixed = [
            "{\"", "\":", "\",", "\"}", "},", "],", "[{", "\":\"", "\":[", "\":{", "\"]", "}]", "}}", "\",\"",
            "true", "false", "null", "\\n", "\\\"", "\\u00", "\\u", "\\\\", "\n", "\t", " \"", "\"\n", "\",\n",
            "0", "12", "345", "0.", ".5", "-1", "-", "100", "20", "7", "99", "1.25", "e5",
            "é", "日本", "😀", "naïve", "名前", "\u{7F}", "name", "age", "mood", "happy", "grumpy", "sleepy", "toys",
            "\"name", "\"age", "\"mood", "\"toys", "\"happy\"", "ball", " ball", "yarn", "mouse", "\"nickname\":",
        ]
        tokens += fixed.map { Array($0.utf8) }
        // Split multi-byte characters: first byte(s) alone and the rest alone.
        for character in ["é", "日", "😀", "ß", "€"] {
            let bytes = Array(character.utf8)
            for cut in 1..<bytes.count {
                tokens.append(Array(bytes[..<cut]))
                tokens.append(Array(bytes[cut...]))
            }
        }
        var seen = Set(tokens)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let punctuation = Array(".,;:!?'-()[]{}\"".utf8)
        while tokens.count < size {
            var token: [UInt8] = []
            switch random.next() % 10 {
            case 0...5:
                if random.next() % 2 == 0 { token.append(0x20) }
                for _ in 0..<(1 + Int(random.next() % 9)) { token.append(letters[Int(random.next() % UInt64(letters.count))]) }
            case 6:
                for _ in 0..<(1 + Int(random.next() % 4)) { token.append(UInt8(ascii: "0") + UInt8(random.next() % 10)) }
            case 7:
                for _ in 0..<(1 + Int(random.next() % 3)) { token.append(punctuation[Int(random.next() % UInt64(punctuation.count))]) }
            case 8:
                token = Array(" \(["le", "la", "des", "und", "の", "ét", "ü"][Int(random.next() % 7)])".utf8)
                for _ in 0..<Int(random.next() % 4) { token.append(letters[Int(random.next() % 26)]) }
            default:
                let spaces = 1 + Int(random.next() % 16)
                token = Array(repeating: 0x20, count: spaces)
            }
            if seen.insert(token).inserted { tokens.append(token) }
        }
        return (Array(tokens.prefix(size)), 1)
    }
}
