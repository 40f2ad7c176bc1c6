import Foundation

/// Word evidence for the language identifier: how common each frequent word is in each of the 40
/// profile languages that wordfreq 3.1.1 lists (its "small" lists, words at Zipf ≥ 4.5), fetched
/// and converted at set-up (`make language-profiles`, scripts/language-words.py, whose header
/// documents the format). Short texts carry too few character n-grams to tell Portuguese from
/// Spanish or Spanish from Catalan; their function words do ("não", "você", "els").
///
/// A word a language does not list counts as Zipf `LanguageIdentifier.absentWordZipf`, so only
/// the listed pairs are stored, as the gain over that floor. A language without a list (15 of
/// the 55, none of the six) reads every word as absent.
struct LanguageWords: Sendable {
    struct Entry: Sendable {
        let language: Int
        let gain: Double
    }

    static let fileName = "language-words.txt"
    static let header = "tandem-language-words 1 "

    private let entries: [String: [Entry]]

    /// The file beside the profiles (`models/language-words.txt` next to `models/language-profiles.bin`).
    static func location(besideProfiles profiles: URL) -> URL {
        profiles.deletingLastPathComponent().appendingPathComponent(fileName)
    }

    /// Reads the file; `codes` are the profiles' codes, in their order. Throws an error naming the
    /// file and, for a malformed line, its number.
    init(contentsOf url: URL, codes: [String], absentZipf: Double) throws(LanguageProfilesError) {
        let path = url.path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanguageProfilesError(path: path, FileManager.default.fileExists(atPath: path)
                ? "cannot be read" : "is missing (run `make language-profiles`)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let index = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        var entries: [String: [Entry]] = [:]
        entries.reserveCapacity(110_000)
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if number == 1 {
                guard line.hasPrefix(Self.header) else {
                    throw LanguageProfilesError(path: path, "line 1: expected a header starting \"\(Self.header)\"")
                }
                continue
            }
            if line.isEmpty { continue }
            // "<profile code> <zipf × 100> <word> <word> …"
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let language = index[String(fields[0])], let centi = Int(fields[1]),
                  (0...900).contains(centi) else {
                throw LanguageProfilesError(path: path, "line \(number): expected \"<profile code> <zipf × 100> <word> …\" "
                                            + "with a code of the profiles")
            }
            let gain = Double(centi) / 100 - absentZipf
            for word in fields.dropFirst(2) { entries[String(word), default: []].append(Entry(language: language, gain: gain)) }
        }
        guard !entries.isEmpty else { throw LanguageProfilesError(path: path, "has no words") }
        self.entries = entries
    }

    /// Adds `weight × gain` to each language that lists a word of the text.
    func addEvidence(of text: String, weight: Double, to sums: inout [Double]) {
        Self.forEachWord(in: text) { word in
            guard let listed = entries[word] else { return }
            for entry in listed { sums[entry.language] += weight * entry.gain }
        }
    }

    /// The words of a text as the lists were split: runs of letters, lower-cased, composed.
    static func forEachWord(in text: String, _ body: (String) -> Void) {
        let lowered = text.lowercased()
        let scalars = lowered.unicodeScalars.contains { (0x300...0x36F).contains($0.value) }
            ? lowered.precomposedStringWithCanonicalMapping.unicodeScalars : lowered.unicodeScalars
        var word = String.UnicodeScalarView()
        for scalar in scalars {
            if NGramKey.isLetter(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                body(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { body(String(word)) }
    }
}
