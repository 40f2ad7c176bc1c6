/// How much of a prompt's example line a draft repeats (Sources/QuoteLibrary/README.md, "Draft
/// prompt"): a base model shown example lines often hands one back, whole or with a word changed.
/// Words are compared as `QuoteText.phraseKey` gives them: case and accents folded, punctuation
/// dropped, apostrophes splitting words.
struct ExampleEcho: Equatable {
    let example: String
    /// The most words in a row the draft shares with the example.
    let run: Int
    /// The words of the draft found in the example in the same order (longest common subsequence).
    let inOrder: Int
    /// The draft's words.
    let words: Int

    /// Five words in a row, or three fifths of the draft's words in the example's order, make a copy.
    /// No held-out line of eval/lines reaches either against the whole few-shot pool (at most four
    /// in a row, and 0.45), so a line that does was not written on its own.
    static let copyRun = 5
    static let copyShare = 0.6

    /// The example the draft copies most, when it copies one.
    static func copied(_ draft: String, from examples: [String]) -> ExampleEcho? {
        let words = keyWords(draft)
        guard !words.isEmpty else { return nil }
        return examples.lazy.map { measure(words, against: $0) }
            .filter { $0.run >= copyRun || Double($0.inOrder) >= copyShare * Double($0.words) }
            .max { $0.run < $1.run }
    }

    static func keyWords(_ text: String) -> [Substring] {
        QuoteText.phraseKey(text).split(separator: " ")
    }

    static func measure(_ words: [Substring], against example: String) -> ExampleEcho {
        let other = keyWords(example)
        guard !other.isEmpty else { return ExampleEcho(example: example, run: 0, inOrder: 0, words: words.count) }
        // One row of each table at a time: run[j] is the run of shared words ending at other[j - 1],
        // common[j] the longest common subsequence of the words so far and other[..<j].
        var run = [Int](repeating: 0, count: other.count + 1)
        var common = [Int](repeating: 0, count: other.count + 1)
        var longest = 0
        for word in words {
            var (diagonalRun, diagonalCommon) = (0, 0)
            for j in 1...other.count {
                let (aboveRun, aboveCommon) = (run[j], common[j])
                if word == other[j - 1] {
                    (run[j], common[j]) = (diagonalRun + 1, diagonalCommon + 1)
                } else {
                    (run[j], common[j]) = (0, max(aboveCommon, common[j - 1]))
                }
                (diagonalRun, diagonalCommon) = (aboveRun, aboveCommon)
                longest = max(longest, run[j])
            }
        }
        return ExampleEcho(example: example, run: longest, inOrder: common[other.count], words: words.count)
    }
}
