import Foundation
import GuidedJSON
import JSONModel
import Testing
@testable import QuoteLibrary

/// One complete sentence: the draft schema's pattern makes a guided decode end with the
/// sentence's final marks, and the gate's `sentenceEnd` check rejects a line that does not
/// (`SentenceEnd`, one rule for both).
@Suite("Sentence end: pattern and gate")
struct SentenceEndTests {
    /// Words of a draft, with and without a leading space, the final marks (French-spaced too),
    /// the JSON around the string and an end token; every printable ASCII byte alone but the
    /// backslash. (With it, a random walk writes `\u` escapes of unassigned or combining scalars,
    /// which the pattern takes as word characters and `QuoteText.words` as word breaks, so the
    /// gate counts more words than the pattern did; a model does not write those.)
    static let vocabulary: (tokens: [[UInt8]], end: Int) = {
        var tokens: [[UInt8]] = [[], Array("<|end|>".utf8)]
        for byte in 0x20...0x7E where byte != 0x5C { tokens.append([UInt8(byte)]) }
        let words = ["Fold", "the", "warm", "blanket", "twice", "and", "leave", "it", "on", "bench", "for", "night", "nurse",
                     "with", "a", "cup", "of", "tea", "Ariadne's", "Regarde", "étoile", "¿Dónde"]
        for word in words { tokens += [Array(word.utf8), Array((" " + word).utf8)] }
        for piece in ["{\"quote\":\"", "{\"", "quote", "\":\"", "\":", "\"}", ".\"}", " !", " ?", "…", "...", "?!", ",",
                      "\u{00A0}!", "\u{202F}?", "»", "\n"] {
            tokens.append(Array(piece.utf8))
        }
        return (tokens, 1)
    }()

    static func constraint() throws -> TokenConstraint {
        try TokenConstraint(schemaText: DraftPrompt.jsonSchema,
                            vocabulary: TokenVocabulary(tokens: vocabulary.tokens, endOfGenerationTokens: [vocabulary.end]))
    }

    static func token(_ text: String) -> Int { vocabulary.tokens.firstIndex(of: Array(text.utf8))! }

    /// The allowed tokens after `prefix` is accepted token by token (`pieces`).
    static func mask(after pieces: [String]) throws -> TokenMask {
        var constraint = try constraint()
        for piece in pieces { try constraint.accept(token(piece)) }
        var mask = TokenMask(tokenCount: vocabulary.tokens.count)
        constraint.computeMask(into: &mask)
        return mask
    }

    static let tenWords = ["{\"quote\":\"", "Fold", " the", " warm", " blanket", " twice", " and", " leave", " it", " on", " the", " bench"]

    @Test func theStringCannotCloseUntilTheSentenceIsEnded() throws {
        let unfinished = try Self.mask(after: Self.tenWords)
        for closing in ["\"", "\"}"] {
            #expect(!unfinished.contains(Self.token(closing)), "\(closing) allowed before the final mark")
        }
        #expect(!unfinished.contains(Self.vocabulary.end))
        #expect(unfinished.contains(Self.token(".\"}")), "the mark and the close in one token")
        for mark in [".", "!", "?", "?!"] {
            #expect(unfinished.contains(Self.token(mark)), "\(mark) is a sentence end")
        }
        // A line ending in an ellipsis trails off; the pattern, one for every language, sets no
        // space before a mark (the gate admits French "Regarde !").
        for mark in ["…", "...", " !", " ?", "\u{00A0}!", "\u{202F}?"] {
            #expect(!unfinished.contains(Self.token(mark)), "\(mark) is allowed")
        }
        #expect(!unfinished.contains(Self.token("»")) && !unfinished.contains(Self.token("\n")))
        let ended = try Self.mask(after: Self.tenWords + ["."])
        #expect(ended.contains(Self.token("\"")) && ended.contains(Self.token("\"}")))
        #expect(!ended.contains(Self.token(" the")), "nothing follows the sentence's end")
        let ellipsis = try Self.mask(after: Self.tenWords + ["."])
        #expect(!ellipsis.contains(Self.token(".")), "\"..\" allowed")
    }

    /// Random guided decodes over the vocabulary: every one that ends ends its sentence, matches
    /// the pattern and passes the gate's shape checks.
    @Test func everyGuidedDecodeEndsItsSentence() throws {
        let vocabulary = try TokenVocabulary(tokens: Self.vocabulary.tokens, endOfGenerationTokens: [Self.vocabulary.end])
        let pattern = try NSRegularExpression(pattern: DraftShape.pattern)
        let shape: Set<GateName> = [.empty, .wrappingQuotes, .markup, .sentenceCount, .sentenceEnd, .length]
        var ended = 0
        for seed in UInt64(0)..<40 {
            var random = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func next() -> UInt64 { random ^= random << 13; random ^= random >> 7; random ^= random << 17; return random }
            var constraint = try TokenConstraint(schemaText: DraftPrompt.jsonSchema, vocabulary: vocabulary)
            var mask = TokenMask(tokenCount: vocabulary.count)
            var text: [UInt8] = []
            var finished = false
            for _ in 0..<400 {
                constraint.computeMask(into: &mask)
                let allowed = mask.allowedTokens
                if allowed.isEmpty { break }
                if mask.contains(Self.vocabulary.end) { finished = true; break }
                // Prefer whole words, so that decodes reach 8 words within the character limit.
                let words = allowed.filter { Self.vocabulary.tokens[$0].count > 2 }
                let pool = !words.isEmpty && next() % 4 != 0 ? words : allowed
                let token = pool[Int(next() % UInt64(pool.count))]
                try constraint.accept(token)
                text += Self.vocabulary.tokens[token]
            }
            guard finished else { continue }
            ended += 1
            guard case .string(let quote)? = try JSONValue(parsing: text)["quote"] else {
                Issue.record("not a {\"quote\": …} document: \(String(decoding: text, as: UTF8.self))"); continue
            }
            #expect(SentenceEnd.isComplete(quote), "\(quote)")
            let whole = NSRange(quote.startIndex..., in: quote)
            #expect(pattern.firstMatch(in: quote, range: whole)?.range == whole, "\(quote)")
            // A decode that used the pattern's spare word was ended by the mask: too long.
            let tooLong = QuoteText.words(quote).count > DeterministicGate.wordLimits.upperBound
            for verdict in DeterministicGate().evaluate(quote, locale: "en") where shape.contains(verdict.gate) {
                #expect(verdict.passed == (verdict.gate != .length || !tooLong),
                        "\(verdict.gate.rawValue): \(verdict.passed) on \(quote): \(verdict.reason ?? "")")
            }
        }
        #expect(ended >= 20, "only \(ended) of 40 decodes ended")
    }

    /// The mask lets a decode write one word past the gate's 18, so a model that is not done by
    /// its 18th word is not made to end the line there mid-phrase; the gate rejects that line.
    @Test func theMaskAdmitsOneSpareWordThatTheGateRejects() throws {
        let eighteen = ["{\"quote\":\"", "Fold"] + Array(repeating: " the", count: 17)
        let afterEighteen = try Self.mask(after: eighteen)
        #expect(afterEighteen.contains(Self.token(" the")) && afterEighteen.contains(Self.token(".")))
        let afterNineteen = try Self.mask(after: eighteen + [" the"])
        #expect(!afterNineteen.contains(Self.token(" the")), "a 20th word is allowed")
        #expect(afterNineteen.contains(Self.token(".")))
        let line = "Fold the blanket twice and leave it on the bench for the night nurse with a cup of tea."
        #expect(QuoteText.words(line).count == DraftShape.decodedWordLimit)
        let whole = NSRange(line.startIndex..., in: line)
        #expect(try NSRegularExpression(pattern: DraftShape.pattern).firstMatch(in: line, range: whole)?.range == whole)
        let length = DeterministicGate().evaluate(line, locale: "en").first { $0.gate == .length }
        #expect(length?.passed == false && length?.reason == "has 19 words; at most 18 are allowed")
    }

    @Test(arguments: [
        "Fold the warm blanket twice and leave it on the bench for the night nurse.",
        "Where did you leave the red umbrella that your grandmother gave you last spring?",
        "Ring the bell twice, the baker still has one warm loaf for you!",
        "Did you really paint the whole fence blue before breakfast?!",
        "Regarde la fenêtre de la cuisine, ta grand-mère y a posé une tarte !",
        "Regarde la fenêtre de la cuisine, ta grand-mère y a posé une tarte\u{202F}!",
        "Ta grand-mère a laissé un mot sur la porte : « Reviens manger ce soir ! »",
        "¿Dónde dejaste la llave del buzón que te dio la vecina del tercero?",
        "Sie flüsterte ihrem Bruder zu, er solle leise sein: „Das Baby schläft.“",
    ])
    func linesThatEndTheirSentencePass(text: String) {
        let locale = text.hasPrefix("Regarde") || text.hasPrefix("Ta grand") ? "fr" : "en"
        #expect(SentenceEnd.isComplete(text, language: locale))
        #expect(DeterministicGate().evaluate(text, locale: locale).first { $0.gate == .sentenceEnd }?.passed == true)
    }

    /// French typography's space before ! and ? is French: in another language's line it is a
    /// line that broke off ("… the first snow of !", as SmolLM2 wrote when made to end its line).
    @Test func aSpaceBeforeTheMarkIsFrenchOnly() {
        let text = "Regarde la fenêtre de la cuisine, ta grand-mère y a posé une tarte !"
        #expect(SentenceEnd.isComplete(text, language: "fr"))
        #expect(!SentenceEnd.isComplete("Fold the warm blanket twice and leave it on the bench for the night nurse !", language: "en"))
        #expect(DeterministicGate().firstFailure("Fold the warm blanket twice and leave it on the bench for the night of !",
                                                 locale: "en")?.gate == .sentenceEnd)
    }

    @Test(arguments: [
        "Dinner at the kitchen table, a meringue mousse on a bed of fluffy lavender, a cup of tea",
        "Fold the warm blanket twice and leave it on the bench for the night nurse,",
        "Fold the warm blanket twice and leave it on the bench for the night nurse .",
        "Fold the warm blanket twice and leave it on the bench for the night nurse;",
        "Fold the warm blanket twice and leave it on the bench for the night nurse —",
        "Fold the warm blanket twice and leave it on the bench for the night nurse «",
        "Wait for the kettle, the tea is almost ready and the cups are warm…",
        "Wait for the kettle, the tea is almost ready and the cups are warm...",
        "Wait for the kettle, the tea is almost ready and the cups are warm.…",
    ])
    func linesThatStopMidPhraseAreRejectedBySentenceEnd(text: String) {
        #expect(!SentenceEnd.isComplete(text))
        let failure = DeterministicGate().firstFailure(text, locale: "en")
        #expect(failure?.gate == .sentenceEnd, "\(text): \(failure.map { "\($0.gate): \($0.reason ?? "")" } ?? "pass")")
        #expect(failure?.reason?.contains("does not end its sentence") == true)
    }

    /// A line whose first word is in lower case is the rest of a sentence begun elsewhere (as
    /// SmolLM2 wrote: "snow of the year, …"), after any opening marks; a capital, a digit or an
    /// uncased script begins one.
    @Test func aLineThatStartsInLowerCaseIsRejectedBySentenceStart() {
        let gate = DeterministicGate()
        for (text, locale) in [("snow of the year, a fitting description for the snowy wonder of a morning.", "en"),
                               ("¡qué bonito es el jardín de la abuela cuando llueve por la tarde!", "es"),
                               ("...and then the kettle sang for the whole sleepy house at dawn.", "en")] {
            let failure = gate.firstFailure(text, locale: locale)
            #expect(failure?.gate == .sentenceStart, "\(text): \(failure.map { "\($0.gate): \($0.reason ?? "")" } ?? "pass")")
            #expect(failure?.reason?.contains("does not begin a sentence") == true)
        }
        for text in ["¿Dónde dejaste la llave del buzón que te dio la vecina del tercero?",
                     "« Reste encore un peu, la soupe de ta grand-mère est presque prête ! »",
                     "Über den Dächern der Stadt singt am Morgen eine einzelne Amsel.",
                     "3 cups of flour and one patient afternoon make bread for the whole street.",
                     "東京の朝"] {
            #expect(gate.evaluate(text, locale: "en").first { $0.gate == .sentenceStart }?.passed == true, "\(text)")
        }
    }

    /// The gate's rule and the pattern's agree on the endings a draft may have.
    @Test func thePatternAndTheGateAgreeOnEndings() throws {
        let pattern = try NSRegularExpression(pattern: DraftShape.pattern)
        let base = "Fold the warm blanket twice and leave it on the bench for the night nurse"
        for ending in [".", "!", "?", "…", "...", "?!", "!!", "!!!!", " !", " ?", "\u{00A0}!", "\u{202F}?", "", ",", " .", "  !", ";", "-", ".!"] {
            let text = base + ending
            let whole = NSRange(text.startIndex..., in: text)
            #expect((pattern.firstMatch(in: text, range: whole)?.range == whole) == SentenceEnd.isComplete(text),
                    "\"\(ending)\": pattern and gate disagree")
        }
    }
}
