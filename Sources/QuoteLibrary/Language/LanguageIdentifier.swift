import Foundation
import Synchronization

/// Identifies the language of a short text with a naive Bayes classifier over character 1–3-grams
/// against the 55 Wikipedia-derived profiles of `LanguageProfiles` (the method of the
/// `langdetect` package, without its random sampling: every n-gram of the text counts once, so the
/// answer is deterministic), plus word evidence: each language's log-likelihood gains
/// `wordWeight × ln 10 × (Zipf − absentWordZipf)` for each word of the text its wordfreq list has
/// (`LanguageWords`). The answer is one of the six supported languages, `other` for text
/// in any other language, and nil only for text with no letters. Accuracy is measured on a
/// labelled set made from translated help pages (see the folder's README and
/// `LanguageIdentifierTests`).
public struct LanguageIdentifier: Sendable {
    public struct Guess: Equatable, Sendable {
        /// en, de, es, fr, it, pt, `other`, or nil when the text has no letters.
        public let language: String?
        /// The most probable profile ("nl", "pt", …); nil when no n-gram of the text is in any
        /// profile (letters of a script none of them covers).
        public let closest: String?
        /// The most probable profile's posterior probability, 0–1.
        public let probability: Double
        /// Its lead over the runner-up profile, 0–1.
        public let confidence: Double
        /// Posterior probability of each supported language and of `other` (all other profiles).
        public let scores: [String: Double]

        /// How far the most probable profile leads the given supported language, 0–1 (0 when it
        /// is that language).
        public func lead(over language: String) -> Double { probability - (scores[language] ?? 0) }
    }

    public static let other = "other"

    /// Additive smoothing, in the original's terms: an n-gram contributes `log(alpha / 10,000 +
    /// p(n-gram | language))`, so a language that never saw it is penalised but not ruled out.
    /// Chosen on the tuning half of the labelled set (the original's default is 0.5).
    static let smoothing = 0.5
    static let baseFrequency = 10_000.0
    /// The word evidence's weight, per Zipf unit (a factor of 10 in frequency), against the n-gram
    /// log-likelihood, and the Zipf value a word counts as in a language whose list lacks it
    /// (the lists keep Zipf ≥ 4.5). Both chosen on the tuning half of the labelled set.
    static let wordWeight = 3.0
    static let absentWordZipf = 3.0

    /// The process's identifier, on the profiles at `LanguageProfiles.defaultLocation()`, loaded
    /// at its first use.
    public static let shared = LanguageIdentifier(loader: ProfileLoader(smoothing: smoothing, wordWeight: wordWeight) { () throws(LanguageProfilesError) in
        try LanguageProfiles.defaultLocation()
    })

    private let loader: ProfileLoader

    /// An identifier on the given profile file, read at the first `identify` (once). `smoothing`
    /// is for tuning only.
    /// The word evidence is read from `language-words.txt` beside the profile file.
    public init(profilesAt url: URL) { self.init(profilesAt: url, smoothing: Self.smoothing) }

    init(profilesAt url: URL, smoothing: Double, wordWeight: Double = Self.wordWeight) {
        self.init(loader: ProfileLoader(smoothing: smoothing, wordWeight: wordWeight) { url })
    }

    private init(loader: ProfileLoader) { self.loader = loader }

    /// Loads the profiles now (they load at the first `identify` otherwise), so a missing or
    /// corrupt file is reported before any work.
    public func load() throws(LanguageProfilesError) { _ = try loader.model() }

    public func identify(_ text: String) throws(LanguageProfilesError) -> Guess {
        let model = try loader.model()
        guard text.unicodeScalars.contains(where: NGramKey.isLetter) else {
            return Guess(language: nil, closest: nil, probability: 0, confidence: 0, scores: [:])
        }
        let profileCount = model.profiles.codes.count
        var logLikelihood = [Double](repeating: 0, count: profileCount)
        var grams: [UInt64] = []
        grams.reserveCapacity(3 * text.unicodeScalars.count)
        NGramKey.forEach(in: text) { grams.append($0) }
        var matched = 0
        model.logRatio.withUnsafeBufferPointer { ratio in
            model.profiles.entryLanguages.withUnsafeBufferPointer { languages in
                logLikelihood.withUnsafeMutableBufferPointer { sums in
                    for gram in grams {
                        guard let entries = model.profiles.entries(of: gram) else { continue }
                        matched += 1
                        for entry in entries { sums[Int(languages[entry])] += ratio[entry] }
                    }
                }
            }
        }
        guard matched > 0 else {
            return Guess(language: Self.other, closest: nil, probability: 1, confidence: 1, scores: [Self.other: 1])
        }
        model.words.addEvidence(of: text, weight: model.wordWeight * log(10), to: &logLikelihood)
        let peak = logLikelihood.max()!
        var posterior = logLikelihood.map { exp($0 - peak) }
        let total = posterior.reduce(0, +)
        for index in posterior.indices { posterior[index] /= total }
        var (first, second) = (0, 1)
        if posterior[second] > posterior[first] { (first, second) = (second, first) }
        for index in 2..<profileCount where posterior[index] > posterior[second] {
            if posterior[index] > posterior[first] { (first, second) = (index, first) } else { second = index }
        }
        var scores = Dictionary(uniqueKeysWithValues: (LanguageProfiles.languages + [Self.other]).map { ($0, 0.0) })
        for (index, code) in model.profiles.codes.enumerated() { scores[Self.answer(for: code), default: 0] += posterior[index] }
        let best = model.profiles.codes[first]
        return Guess(language: Self.answer(for: best), closest: best, probability: posterior[first],
                     confidence: posterior[first] - posterior[second], scores: scores)
    }

    /// A profile's code when it is one of the six, else `other`.
    static func answer(for code: String) -> String {
        LanguageProfiles.languages.contains(code) ? code : other
    }
}

/// The profiles with each entry's log-likelihood ratio precomputed: `log(w + p) − log(w)` for
/// `w = smoothing / baseFrequency` and `p` = the entry's count over its profile's total for that
/// n-gram length. A language without the n-gram adds 0, so only a text's known n-grams are visited.
struct ScoringModel: Sendable {
    let profiles: LanguageProfiles
    let logRatio: [Double]
    let words: LanguageWords
    let wordWeight: Double

    init(_ profiles: LanguageProfiles, smoothing: Double, words: LanguageWords, wordWeight: Double) {
        let floor = smoothing / LanguageIdentifier.baseFrequency
        var ratio = [Double](repeating: 0, count: profiles.entryCounts.count)
        for key in profiles.keys.indices {
            let length = NGramKey.length(profiles.keys[key])
            for entry in Int(profiles.starts[key])..<Int(profiles.starts[key + 1]) {
                let total = profiles.totals[3 * Int(profiles.entryLanguages[entry]) + length - 1]
                ratio[entry] = log1p(Double(profiles.entryCounts[entry]) / total / floor)
            }
        }
        (self.profiles, logRatio, self.words, self.wordWeight) = (profiles, ratio, words, wordWeight)
    }
}

/// Loads the profiles once, at the first use, and keeps the outcome: a failure is reported to
/// every caller the same way, never retried half-way.
final class ProfileLoader: Sendable {
    private let smoothing: Double
    private let wordWeight: Double
    private let locate: @Sendable () throws(LanguageProfilesError) -> URL
    private let state = Mutex<Result<ScoringModel, LanguageProfilesError>?>(nil)

    init(smoothing: Double, wordWeight: Double, locate: @escaping @Sendable () throws(LanguageProfilesError) -> URL) {
        (self.smoothing, self.wordWeight, self.locate) = (smoothing, wordWeight, locate)
    }

    func model() throws(LanguageProfilesError) -> ScoringModel {
        try state.withLock { state in
            if let state { return state }
            let loaded = Result { () throws(LanguageProfilesError) in
                let url = try locate()
                let profiles = try LanguageProfiles(contentsOf: url)
                let words = try LanguageWords(contentsOf: LanguageWords.location(besideProfiles: url), codes: profiles.codes,
                                              absentZipf: LanguageIdentifier.absentWordZipf)
                return ScoringModel(profiles, smoothing: smoothing, words: words, wordWeight: wordWeight)
            }
            state = loaded
            return loaded
        }.get()
    }
}

/// The n-grams of a text as the profiles were counted: each character normalised (punctuation,
/// digits and symbols of the Latin blocks become spaces; a few letters fold to the form the
/// profiles use), runs of spaces collapsed, every 1-, 2- and 3-gram ending at each character,
/// and none inside a word written in capitals (acronyms carry no language). A gram's key packs
/// its Unicode scalars 21 bits apiece, the first highest, as scripts/language-profiles.py does.
enum NGramKey {
    static let space: UInt32 = 0x20

    static func length(_ key: UInt64) -> Int { key < 1 << 21 ? 1 : key < 1 << 42 ? 2 : 3 }

    static func forEach(in text: String, _ body: (UInt64) -> Void) {
        // Profiles were counted on composed text: decompose-then-compose only when a combining
        // accent is present, which is rare.
        let scalars = text.unicodeScalars.contains { (0x300...0x36F).contains($0.value) }
            ? text.precomposedStringWithCanonicalMapping.unicodeScalars : text.unicodeScalars
        var grams: (UInt32, UInt32, UInt32) = (0, 0, space)  // the last three, newest last; 0 = none
        var capitalWord = false
        for scalar in scalars {
            let character = normalize(scalar)
            let last = grams.2
            if last == space {
                grams = (0, 0, space)
                capitalWord = false
                if character == space { continue }
            }
            grams = (grams.1, grams.2, character)
            if isUppercase(character) {
                if isUppercase(last) { capitalWord = true }
            } else {
                capitalWord = false
            }
            if capitalWord { continue }
            if character != space { body(UInt64(character)) }
            if grams.1 != 0 { body(UInt64(grams.1) << 21 | UInt64(character)) }
            if grams.0 != 0 { body(UInt64(grams.0) << 42 | UInt64(grams.1) << 21 | UInt64(character)) }
        }
    }

    static func isUppercase(_ value: UInt32) -> Bool {
        value < 0x80 ? (0x41...0x5A).contains(value) : Unicode.Scalar(value)?.properties.isUppercase ?? false
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// The original's per-block normalisation (CJK ideographs are left as they are: every
    /// language written in them answers `other` either way).
    static func normalize(_ scalar: Unicode.Scalar) -> UInt32 {
        let value = scalar.value
        switch value {
        case 0x00...0x7F:
            let isLetter = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            return isLetter ? value : space
        case 0xA0, 0xAB, 0xB0, 0xBB: return space
        case 0x219: return 0x15F  // Romanian ș, comma below → cedilla, as in the profiles
        case 0x21B: return 0x163  // Romanian ț
        case 0x2000...0x206F: return space  // general punctuation: dashes, curly quotes, …
        case 0x6CC: return 0x64A  // Farsi yeh → Arabic yeh
        case 0x1EA0...0x1EFF: return 0x1EC3  // Vietnamese letters with two marks share one gram
        case 0x3040...0x309F: return 0x3042  // hiragana
        case 0x30A0...0x30FF: return 0x30A2  // katakana
        case 0x3100...0x312F, 0x31A0...0x31BF: return 0x3105  // bopomofo
        case 0xAC00...0xD7AF: return 0xAC00  // hangul syllables
        default: return value
        }
    }
}
