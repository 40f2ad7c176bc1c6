import Foundation

/// Sources/QuoteLibrary/README.md, "The pipeline", step 3: cheap checks that need no model, in a
/// fixed order. `evaluate` runs all of them (for `check` and tuning); the pipeline stops at the
/// first failure.
public struct DeterministicGate: Sendable {
    /// The draft asks for 10–16 words; the gate rejects outside 8…18 (the README's "Thresholds": at
    /// most 18).
    public static let wordLimits = 8...18
    public static let typicalWords = 10...16
    /// Below this lead of the identified language over the expected one the call is too weak to
    /// reject on.
    static let languageConfidenceFloor = 0.15

    public let extraBannedFragments: [String]
    let identifier: LanguageIdentifier
    /// The word lists every word of a draft is looked up in (`RealWords`); the pipeline and
    /// `quote check` give the distinctiveness tables. Without them the word check is skipped and
    /// says so.
    public let vocabulary: WordFrequencies?
    /// The counts the last word is judged by (`DanglingWords`): by default the table beside the
    /// word lists (`make sentence-ends` puts it there). Without either the check is skipped and says so.
    public let sentenceEnds: SentenceEndCounts?

    public init(extraBannedFragments: [String] = [], identifier: LanguageIdentifier = .shared,
                vocabulary: WordFrequencies? = nil, sentenceEnds: SentenceEndCounts? = nil) {
        self.extraBannedFragments = extraBannedFragments.map { QuoteText.phraseKey($0) }
        self.identifier = identifier
        self.vocabulary = vocabulary
        self.sentenceEnds = sentenceEnds
            ?? vocabulary.map { SentenceEndCounts(file: SentenceEndCounts.file(inWordFrequencies: $0.directory)) }
    }

    /// The checks in the order they run: `GateName`'s, up to the first that needs a model.
    public static let order: [GateName] = Array(GateName.allCases.prefix { $0 != .novelty })

    /// `examples`: the lines the draft prompt showed (`DraftRequest.examples`); a draft that copies
    /// one fails `promptFragment`.
    public func evaluate(_ text: String, locale: String, examples: [String] = []) -> [GateResult] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let phrase = QuoteText.phraseKey(trimmed)
        let language = SupportedLocale.language(of: locale)
        // The writer's remark or opinion after the line, read once: a leftover's mark, and no credit.
        let remark = RemarkAfterLine(trimmed)
        return [
            checkEmpty(trimmed),
            Self.checkAttribution(trimmed, language: language, remark: remark),
            checkPromptFragments(trimmed, phrase: phrase, examples: examples, language: language, remark: remark),
            checkWrappingQuotes(trimmed),
            checkMarkup(text),
            checkSentences(trimmed),
            checkSentenceStart(trimmed),
            checkSentenceEnd(trimmed, language: language),
            checkLength(trimmed),
            checkLanguage(trimmed, expected: language),
            checkBanned(trimmed, phrase: phrase),
            checkCliches(phrase, language: language),
            checkWords(trimmed, language: language),
            checkDanglingWord(trimmed, language: language),
        ]
    }

    /// The first failing check, or nil when the draft passes the whole gate.
    public func firstFailure(_ text: String, locale: String, examples: [String] = []) -> GateResult? {
        evaluate(text, locale: locale, examples: examples).first { !$0.passed }
    }

    // MARK: Checks

    private func checkEmpty(_ text: String) -> GateResult {
        text.contains(where: \.isLetter) ? .pass(.empty) : .fail(.empty, text.isEmpty ? "the draft is empty" : "the draft has no words")
    }

    /// Leftovers of the prompt or of chat talk, by structure as well as by phrase: four words in a
    /// row from the draft instructions ("a specific image, someone doing …"), a short lead-in
    /// ending in a colon ("Here is your quote: …", "Voici ta citation : …", "Zitat: …": a label of
    /// at most three words, talk about the exchange, or nothing after the colon; a clause of
    /// advice is the line's own: "Chiama il portinaio per nome: sarà il primo …"), a
    /// presentational opener followed closely by a word for the text itself ("Aqui está a frase
    /// …", "Hier ist ein Zitat …"), a word count, a copy of one of the prompt's example lines.
    private func checkPromptFragments(_ text: String, phrase: String, examples: [String], language: String?, remark: RemarkAfterLine) -> GateResult {
        if let fragment = GateLexicon.promptFragments.first(where: { phrase.contains(" \($0) ") }) {
            return .fail(.promptFragment, "contains the prompt fragment \"\(fragment)\"")
        }
        let tokens = phrase.split(separator: " ").map(String.init)
        if tokens.count >= Self.echoWords,
           let echoed = (0...(tokens.count - Self.echoWords)).lazy.map({ tokens[$0..<$0 + Self.echoWords].joined(separator: " ") })
            .first(where: Self.instructionShingles.contains) {
            return .fail(.promptFragment, "repeats the draft instructions (\"\(echoed)\")")
        }
        if let (lead, rest) = Self.leadIn(text) {
            let words = QuoteText.words(lead).count
            let nothingAfter = !rest.contains(where: \.isLetter)
            if words <= Self.leadInWordLimit && (words < Self.clauseLeadInWords || Self.isExchangeTalk(lead) || nothingAfter) {
                return .fail(.promptFragment, "starts with the lead-in \"\(lead.trimmingCharacters(in: .whitespaces)):\"")
            }
        }
        for (opener, end) in Self.presentationalOpeners(in: tokens) {
            let after = tokens[end...].prefix(Self.metaNounDistance)
            if let noun = after.first(where: { ExchangeTalk.Lexicon.textNouns.contains($0) || ExchangeTalk.Lexicon.lineNouns.contains($0) }) {
                return .fail(.promptFragment, "presents the text (\"\(opener) … \(noun)\") instead of being it")
            }
        }
        if let talk = ExchangeTalk.reason(in: text) {
            return .fail(.promptFragment, talk)
        }
        if Self.wordCount.matches(text) {
            return .fail(.promptFragment, "mentions a word count, echoing the prompt")
        }
        if let label = Self.dashLabel(text, language: language) {
            return .fail(.promptFragment, "starts with the label \"\(label)\" before a dash")
        }
        if remark.dash {
            return .fail(.promptFragment, "ends with a remark on the line after a dash")
        }
        if Self.noteInBrackets.matches(text) {
            return .fail(.promptFragment, "ends with a note in brackets after the line")
        }
        if remark.opinion {
            return .fail(.promptFragment, "ends with the writer's opinion of the line after a dash")
        }
        if let echo = ExampleEcho.copied(text, from: examples) {
            return .fail(.promptFragment, "copies the prompt's example \"\(echo.example)\" (\(echo.run) words in a row, "
                         + "\(echo.inOrder) of its \(echo.words) words in that order)")
        }
        return .pass(.promptFragment)
    }

    /// A note in brackets after the line's own end, to the end of the draft: one that ends a sentence of its own
    /// ("… ancora sintonizzata. (Breve e quotidiana, come richiesto.)", "… (Hope that works!)") or starts in lower case
    /// ("… sa tournée. (concret, sans exclamation)"). A credit in brackets is a name, with no sentence of its own
    /// ("… (Grandma Rose, 1962)": `attributionPatterns`); the writers of eval/drafts ended no good line with brackets.
    static let noteInBrackets = GatePattern(#"[.!?…]["'”’»]?\s*[(\[]\s*(?:\p{Ll}[^()\[\]]*|[^()\[\]]*[.!?…]\s*)[)\]]\s*[.!?…]?\s*$"#)

    /// Whether the draft ends with the writer's remark on the line (`remarkAfterDash`) or opinion of it (`opinionAfterLine`).
    struct RemarkAfterLine {
        let dash: Bool
        let opinion: Bool

        init(_ text: String) {
            dash = DeterministicGate.remarkAfterDash.matches(text)
            opinion = DeterministicGate.opinionAfterLine.matches(text)
        }
    }

    /// The writer's opinion of the line or the request, in the first person, after a dash that follows the line's
    /// end (a sentence end, or the quotation that opens the draft): "\"She folds the towels.\" — short, but I think it
    /// works.", "«O padeiro abre a porta antes do sol» — curta, mas acho que chega.", "— breve y sencilla, como
    /// pediste." After the line's end, the words are no part of it, and a speaker credited there names someone else.
    static let opinionAfterLine = GatePattern("(?:[.!?…][\"'”’»]?|^\\P{L}*[\"“«„‘][^\"”»“]+[\"”»“’])\\s*(?:[—–―~]|\\s-)\\s*[^—–]{0,50}?"
        + "\\b(?i:I think|I believe|I hope|hopefully|je crois|je pense|j['’]espère|creo|espero|me parece|credo|penso|spero|"
        + "acho|parece-me|glaube ich|ich glaube|finde ich|ich finde|hoffe ich|ich hoffe|como pediste|como pedías|como pedias|"
        + "como pedido|comme demandé|wie gewünscht|as requested|as you asked)(?![\\p{L}])[^—–]{0,50}$")

    /// The writer's verdict on the line after a closing dash, to its end: a hedge and a degree
    /// ("— quizá demasiado descriptiva.", "– vielleicht etwas zu ruhig für einen Montag.", "—
    /// talvez um pouco previsível."), or the request ("— within the requested length."). A hedge
    /// alone is a line's own turn ("— perhaps the best cup I never drank.").
    static let remarkAfterDash = GatePattern("(?:\\s[-–—]|[—–])\\s*(?:(?i:maybe|perhaps|possibly|probably|vielleicht|quizá|quizás|quiza|quizas|"
        + "tal vez|talvez|peut-être|peut-etre|sans doute|forse|magari)\\s+(?:\\p{L}+\\s+)?(?i:too|a bit|a little|slightly|"
        + "etwas|zu|ein bisschen|ein wenig|demasiado|un poco|algo|un peu|trop|assez|troppo|un po['’]|un tantino|um pouco|"
        + "demais|meio|muito)\\b|[^—–]{0,40}\\b(?i:requested|gewünschte?n?|solicitada|pedida|demandée|richiesta)\\b"
        // the writer's liking as the last words ("— simple, mais je l'aime bien."; not "— I like it best in the rain."),
        // a choice made on purpose ("— l'ho lasciata volutamente sospesa.") and a question back ("— ou preferias algo
        // com pessoas?"; set 19 of eval/drafts)
        + "|[^—–]{0,30}\\b(?i:je l['’]aime|j['’]aime bien|I like it|I love it|mir gefällt['’]s|gefällt mir|me gusta|"
        + "me encanta|mi piace|gosto dela|gosto dele|gosto disso)(?:\\s+(?i:bien|beaucoup|a lot|so|sehr|mucho|molto|tanto|"
        + "muito))?\\s*[.!]?\\s*$"
        + "|[^—–]{0,30}\\b(?i:l['’]ho lasciat[ao]|je l['’]ai laissée?|lo dejé|la dejé|deixei-[ao]|I left it|I kept it|"
        + "I['’]ve left it|I['’]ve kept it|ich habe (?:es|sie|ihn)|ich hab['’]s)\\s+(?:\\p{L}+\\s+)?(?i:volutamente|apposta|"
        + "exprès|volontairement|a propósito|adrede|de propósito|propositadamente|deliberately|on purpose|intentionally|"
        + "bewusst|absichtlich)\\b"
        + "|(?i:or|oder|o|ou)\\s+(?:\\p{L}+\\s+){0,2}?(?i:would you|do you|you['’]d|prefer|möchtest|hättest|willst|"
        + "préfères|préférez|preferisci|preferite|preferiresti|prefieres|preferirías|preferís|preferes|preferias|"
        + "preferirias|quieres|queres|vuoi|veux|voulez)\\b[^—–]{0,50}\\?)[^—–]{0,50}$")
    /// A word count, echoing the prompt ("12 words", "10–16 Wörter").
    static let wordCount = GatePattern(#"\b\d+\s*(–|-|to|bis|a|à)?\s*\d*\s*(words?|wörter|palabras|mots|parole|palavras)\b"#,
                                       caseInsensitive: true)

    /// Four words in a row from the draft instructions (without a theme) are an echo of them.
    static let echoWords = 4
    static let instructionShingles: Set<String> = {
        let words = QuoteText.phraseKey(DraftPrompt.instructions(locale: "en", theme: nil)).split(separator: " ").map(String.init)
        return Set((0...(words.count - echoWords)).map { words[$0..<$0 + echoWords].joined(separator: " ") })
    }()

    /// A colon after at most this many words ends a lead-in, not a clause of the line.
    static let leadInWordLimit = 8
    /// A presentational opener counts within the first words (after "Sure!", "Claro,", …).
    static let openerSearchWords = 4

    /// Every presentational opener ("here is", "voici", "ecco") among the first words of
    /// `tokens`, with the index just after it.
    static func presentationalOpeners(in tokens: [String]) -> [(opener: String, end: Int)] {
        GateLexicon.presentationalOpeners.flatMap { opener -> [(opener: String, end: Int)] in
            let parts = opener.split(separator: " ").map(String.init)
            return (0...min(openerSearchWords, max(0, tokens.count - parts.count)))
                .filter { $0 + parts.count <= tokens.count && Array(tokens[$0..<$0 + parts.count]) == parts }
                .map { (opener, $0 + parts.count) }
        }
    }
    /// How close after the opener the word for the text must come ("here is a short quote").
    static let metaNounDistance = 4

    private static let openingQuotes: Set<Character> = ["\"", "“", "”", "„", "«", "»", "‚", "‘", "’", "'", "「", "『", "‹", "›"]
    private static let closingQuotes: Set<Character> = ["\"", "“", "”", "«", "»", "‘", "’", "'", "」", "』", "‹", "›"]

    private func checkWrappingQuotes(_ text: String) -> GateResult {
        guard let first = text.first, Self.openingQuotes.contains(first) else { return .pass(.wrappingQuotes) }
        let tail = text.suffix(3).filter { !".!?…,;".contains($0) && !$0.isWhitespace }
        if let last = tail.last, Self.closingQuotes.contains(last), text.count > 1 {
            return .fail(.wrappingQuotes, "the draft is wrapped in quotation marks")
        }
        return .pass(.wrappingQuotes)
    }

    private func checkMarkup(_ text: String) -> GateResult {
        if text.contains(where: \.isNewline) { return .fail(.markup, "contains a line break") }
        if Self.hashtag.matches(text) { return .fail(.markup, "contains a hashtag") }
        if let emoji = text.unicodeScalars.first(where: Self.isEmoji) {
            return .fail(.markup, "contains an emoji (U+\(String(emoji.value, radix: 16, uppercase: true)))")
        }
        if let stray = text.unicodeScalars.first(where: Self.isNoText) {
            return .fail(.markup, "contains U+\(String(stray.value, radix: 16, uppercase: true)), "
                         + "a character that is no letter, digit or punctuation of written text")
        }
        if Self.markdown.contains(where: { $0.matches(text) }) {
            return .fail(.markup, "contains markdown")
        }
        return .pass(.markup)
    }

    static let hashtag = GatePattern(#"#\p{L}"#)
    static let markdown = [#"\*\*"#, #"__"#, #"`"#, #"^\s*#+\s"#, #"^\s*[-*+]\s"#, #"^\s*>\s"#, #"\]\("#, #"^\s*\d+\.\s"#,
                           #"(^|\s)\*[^*\s][^*]*\*(\s|$|[.,!?])"#, #"(^|\s)_[^_\s][^_]*_(\s|$|[.,!?])"#].map { GatePattern($0) }

    /// Unassigned and private-use code points, and symbols from U+2000 up (a base model's byte
    /// tokens decode to such things: Gemma 3 270M once wrote "Tipp \u{2FFF} der letzten Tage …"). Below
    /// U+2000 a symbol is a line's business ("20 °C", "©").
    static func isNoText(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .unassigned, .privateUse, .surrogate: true
        case .otherSymbol: scalar.value >= 0x2000
        default: false
        }
    }

    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isEmojiPresentation || scalar.value == 0xFE0F
            || (properties.isEmoji && scalar.value >= 0x2190 && !(0x2190...0x21FF).contains(scalar.value))
    }

    /// The line given as someone's words, a famous author's or anyone's ("as my grandfather used
    /// to say": a generated line is nobody's saying). A name or a description of the speaker after a
    /// closing dash or tilde, in closing brackets, or as "anonymous"; a frame of saying around the
    /// line in any of the six languages: before it ("As Wilde said, …", "Según mi abuela, …", "Mark
    /// Twain wrote that …", "Dizia a costureira Nair que …", "Zitat von …:"), a claim after a
    /// subject of its own ("Les bergers du Queyras affirment qu'…", "Reza a lenda em Coimbra que …";
    /// not a subject that is nobody: "Nobody tells you that …"), an opinion given as someone's
    /// ("For my father-in-law, …"), after it ("…, disait ma grand-mère.", "…, my uncle used to
    /// say.", "…, Rosa dixit."), or as a signature ("Signé, Lucien."). A verb of saying inside a
    /// scene is no frame ("she said nothing and poured the tea").
    static func checkAttribution(_ text: String, language: String?, remark: RemarkAfterLine) -> GateResult {
        // The writer's remark or opinion after the line is talk about the exchange (`checkPromptFragments`), whatever
        // a frame of crediting reads in it ("… — a bit whimsical, perhaps." is no speaker).
        if !(remark.dash || remark.opinion), Self.attributionPatterns.contains(where: { $0.matches(text) }) {
            return .fail(.attribution, "attributes the line to someone who said or wrote it")
        }
        if let lead = Self.creditedLeadIn(text, language: language) {
            return .fail(.attribution, "names the line's source before a colon (\"\(lead):\")")
        }
        return .pass(.attribution)
    }

    /// The attribution rules alone, on a part of a draft read by itself (`RegisterStep.cause`'s last clauses).
    static func attribution(of text: String, language: String?) -> GateResult {
        checkAttribution(text, language: language, remark: RemarkAfterLine(text))
    }

    /// A lead-in before a colon that names where the line comes from ("An old Yorkshire proverb:",
    /// "Quote of the day from Dorothy, aged 92:", "Mio padre lo diceva sempre davanti all'orto:"):
    /// a verb of saying, a word for a saying or for a kin or neighbour, "by/von/de …" and a name, or
    /// (outside German, where every noun is capitalised) a capitalised word inside the sentence. A
    /// lead-in naming nothing ("Here is your quote:") is a prompt leftover's (`promptFragment`).
    static func creditedLeadIn(_ text: String, language: String?) -> String? {
        guard let (untrimmed, rest) = leadIn(text) else { return nil }
        let lead = untrimmed.trimmingCharacters(in: .whitespaces)
        let words = QuoteText.words(lead).count
        guard (1...leadInWordLimit + 4).contains(words) else { return nil }
        let named = creditPatterns.contains { $0.matches(lead) }
        // A short label's capitals name nobody ("**Quote of the Day:**", "Opzione B:"; set 16 of eval/drafts).
        let label = words <= clauseLeadInWords && isExchangeTalk(lead)
        let capitalised = language != "de" && capitalisedWord.matches(lead) && !englishI.matches(lead) && !label
        // A clause of its own before the colon that is not talk about the exchange, with a
        // quotation after the colon or opening the line, says where the line was found or who said
        // it ("Il cartello appeso in tipografia avverte: «…»", "« Le cidre n'attend personne » :
        // voilà ce que répondait …"). Without a quotation such a clause is as often advice and its
        // reason ("Repasse ta chemise la veille au soir : le matin appartient au café …"; set 13
        // of eval/drafts), left to the register model. Short labels ("Note:", "Frase del día:")
        // and a question after the colon ("… compris : la citation doit-elle être en français ?")
        // are leftovers.
        let quoted = [rest.drop(while: \.isWhitespace).first, text.first].contains { $0.map(openingQuotes.contains) ?? false }
        let clause = words >= clauseLeadInWords && !isExchangeTalk(lead) && !text.hasSuffix("?") && quoted
        return named || capitalised || clause ? lead : nil
    }

    /// A lead-in of at least this many words is a clause, not a label.
    static let clauseLeadInWords = 4

    /// A label before a dash that opens the draft, the line after it a sentence of its own ("Vorschlag – Wer …",
    /// "Proposta n. 1 — Il casellante …", "Versión final — El abuelo …"): at most three words, a spaced dash, a
    /// capital letter next, and no second dash closing an aside ("Our swimming coach — and she repeated it every
    /// Tuesday — believed …"). No good, generic, odd or fragment line of eval/drafts/tuning or of the tuning half of
    /// eval/lines opens with three words or fewer and a dash; 69 tuning leftovers do, 47 of them with a capital
    /// after it. A lowercase word after the dash continues a line as often as talk does ("Rain again – and still
    /// …", "Noted — no names …"), and is left to the register. A lead that names someone (a credit's words, or
    /// outside German a capitalised word inside it: "Oscar Wilde – …") is left to the attribution rules.
    static func dashLabel(_ text: String, language: String?) -> String? {
        guard let dash = spacedDash.ranges(in: text).first else { return nil }
        let lead = text[..<dash.lowerBound].trimmingCharacters(in: .whitespaces), line = text[dash.upperBound...]
        guard (1...dashLabelWords).contains(QuoteText.words(lead).count), line.first(where: \.isLetter)?.isUppercase == true,
              !closingDash.matches(String(line)) else { return nil }
        let names = creditPatterns.contains { $0.matches(lead) }
            || (language != "de" && capitalisedWord.matches(lead) && !englishI.matches(lead))
        return names ? nil : lead
    }
    static let dashLabelWords = 3
    static let spacedDash = GatePattern(#"\s[-–—]\s"#)
    static let closingDash = GatePattern(#"\s[-–—](\s|$)"#)

    /// The text before the first colon and the rest after it, nil without one. A colon between
    /// digits ("the 7:42 to Leeds") is a time or a ratio, not the end of a lead-in.
    static func leadIn(_ text: String) -> (lead: String, rest: Substring)? {
        var search = text.startIndex
        while let colon = text[search...].firstIndex(where: { $0 == ":" || $0 == "：" }) {
            let next = text.index(after: colon)
            let betweenDigits = colon > text.startIndex && text[text.index(before: colon)].isNumber
                && next < text.endIndex && text[next].isNumber
            if !betweenDigits { return (String(text[..<colon]), text[next...]) }
            search = next
        }
        return nil
    }

    /// A lead-in that speaks to the reader or of the exchange: a presentational opener ("Here is",
    /// "Voici"), a reply's exclamation ("Sure!"), an apology, a label naming the text, words
    /// counted ("Contei as palavras duas vezes"), the writer or the reader of the exchange, or any
    /// of `ExchangeTalk`'s combinations.
    static func isExchangeTalk(_ lead: String) -> Bool {
        if lead.contains(where: { "!?¡¿".contains($0) }) || ExchangeTalk.reason(in: lead) != nil { return true }
        let key = QuoteText.phraseKey(lead)
        let tokens = key.split(separator: " ").map(String.init)
        let opener = !presentationalOpeners(in: tokens).isEmpty
        let cues = ExchangeTalk.Lexicon.writerCues + ExchangeTalk.Lexicon.readerCues + ExchangeTalk.Lexicon.apologies
        // A label naming the text ("Versión revisada, más breve:", "Line of the day:").
        let label = tokens.prefix(2).contains { ExchangeTalk.Lexicon.textNouns.contains($0) || ExchangeTalk.Lexicon.lineNouns.contains($0) }
            || tokens.contains(where: ExchangeTalk.Lexicon.wordsNouns.contains)
        return opener || label || cues.contains { key.contains(" \($0) ") }
            || tokens.contains(where: ExchangeTalk.Lexicon.readerWords.contains)
    }

    /// Words for a saying ("proverb", "Volksmund", "refrán", "dicton"), as regular-expression alternatives.
    static let sayingNouns = "proverb|saying|adage|motto|sprichwort|volksmund|redensart|weisheit|refrán|refran|dicho|proverbio|"
        + "dicton|proverbe|detto|ditado|provérbio|sabiduría|sabiduria|sagesse|saggezza|sabedoria|superstition|aberglaube|"
        + "superstición|supersticion|superstizione|superstição|superstiçao"
    /// Words for a saying or for where sayings are kept.
    static let sourceNouns = "(?i:\(sayingNouns)|spruch der|spruch von|diary|tagebuch|diario|journal|poesiealbum|meditations|essais)"

    /// A capitalised word inside the lead-in, other than English "I".
    static let capitalisedWord = GatePattern(#"[\p{L},]\s+\p{Lu}"#)
    static let englishI = GatePattern(#"[\p{L},]\s+I\b"#)

    static let creditPatterns: [GatePattern] = [
        "\\b\(sourceNouns)\\b",
        "\\b(?i:said|says|wrote|writes|repeats|sagte|sagt|schrieb|schreibt|wiederholt|pflegte|dijo|dice|decía|decia|escribe|"
            + "escribió|repetía|répète|répétait|disait|écrit|a écrit|diceva|scrisse|scrive|cantava|lo diceva|dizia|diz|"
            + "escreveu|repetia|cantaba|chantait|disse|reads|steht|stand|lautet|lautete|ponía|ponia|lia-se|lê-se|se lee|"
            + "a posté|on pouvait lire|c['’]è scritto|c['’]era scritto|estaba escrito|estava escrito|"
            // shouted, drilled in, known by a group ("El entrenador nos gritaba cada domingo: …", "Los habituales
            // de la estación lo saben: …"; set 19)
            + "shouted|yelled|rief|brüllte|gritaba|gritó|criait|hurlait|gridava|urlava|gritava|berrava|seriné|rabâché|"
            + "inculcato|eingebläut|eingetrichtert|lo saben|lo sabe|le savent|le sait|lo sanno|lo sa|o sabem|o sabe|"
            + "wissen es|weiß es|know it|knows it)\\b",
        "\\b(?i:grandma|grandpa|grandmother|grandfather|mother|father|mum|mom|dad|aunt|uncle|neighbour|neighbor|teacher|"
            + "oma|opa|mutter|vater|mama|papa|tante|onkel|nachbar|nachbarin|lehrer|lehrerin|"
            + "abuela|abuelo|madre|padre|tía|tia|tío|tio|vecino|vecina|maestra|maestro|"
            + "grand-mère|grand-père|mère|père|tante|oncle|voisin|voisine|instituteur|"
            + "nonna|nonno|zia|zio|vicino|vicina|"
            + "avó|avô|avo|mãe|mae|pai|tia|tio|vizinho|vizinha|professora|professor)\\b",
        "\\b(?i:by|from|von|aus|de|di|da|par|do|della|del)\\s+\\p{Lu}",
    ].map { GatePattern($0) }

    static let attributionPatterns: [GatePattern] = {
        let capitalised = #"\p{Lu}[\p{L}.'’-]*"#
        let particles = "(?:de|da|do|dos|das|del|della|di|du|des|von|van|der|y|e|la|le)"
        let name = "\(capitalised)(?:\\s+(?:\(particles)\\s+)?\(capitalised))*"
        // Verbs that report words, in the forms that frame a saying (past and habitual, the
        // present of "says", the participle after "so hat es … gesagt").
        let said = "(?i:said|says|wrote|writes|remarked|believed|put it|used to say|would say|repeated|insisted|liked to say|"
            // (set 39: "…, as Mavis at the repair table is fond of repeating.", "…, como gostava de lembrar o meu tio …")
            + "fond of saying|fond of repeating|fond of telling us|gostava de lembrar|gostava de dizer|gostava de repetir|"
            + "le gustaba decir|le gustaba repetir|aimait rappeler|amava ripetere|"
            + "quipped|advised|taught|noted|claimed|declared|would put it|"
            + "sagte|sagt|schrieb|schreibt|meinte|fand|wusste|pflegte|gesagt|geschrieben|besagt|lehrte|riet|notierte|wiederholt|"
            + "dijo|decía|decia|diría|diria|dice|escribió|escribio|escribe|afirmaba|afirma|aseguraba|asegura|repetía|repetia|repite|"
            + "enseñó|enseno|enseñaba|aconsejaba|anotó|contaba|"
            + "disait|a dit|dit|dirait|a glissé|écrivait|ecrivait|écrit|a écrit|a ecrit|affirmait|affirme|répétait|repetait|répète|confiait|racontait|"
            + "assurait|notait|enseignait|conseillait|prétendait|pretendait|déclare|"
            + "disse|diceva|direbbe|ha promesso|scrisse|scriveva|scrive|ripeteva|ripete|affermava|raccontava|sosteneva|insegnava|consigliava|annotò|"
            + "dizia|diz|escreveu|escrevia|escreve|repete|garantia|garante|afirmava|contava|ensinou|ensinava|aconselhava|"
            + "lembra|falou|ha detto|ha scritto|ha dicho|ha escrito|"
            // (set 35: "…, m'a expliqué Jeanne en dénouant l'amarre …"; not English "explained", which ends scenes: "…, and
            // nobody explained.")
            + "explicou|explicó|a expliqué|m['’]a expliqué|ha spiegato|mi ha spiegato|"
            // repeating in the past, hammering in ("Mi profesor … me repitió mil veces que …", "…, nous martelait le
            // coach …"; set 29)
            + "used to repeat|would repeat|repitió|repitio|repetiu|a répété|ha ripetuto|ripeté|"
            + "martelait|martellava|machacaba|martelava|rabâchait|serinait)"
        // Singing and the infinitives after "liked to": only in the frame "as … sang, …"
        // ("Comme le chantait Trenet, …", "As the old song goes, …", "Come amava dire mio nonno, …").
        let sang = "(?i:sang|sings|goes|singt|heißt|heisst|chantait|chante|chanta|chantent|canta|cantaba|cantava|cantó|"
            + "say|sagen|decir|repetir|dire|ripetere|dizer|explain|remind us|erklären|explicar|recordar|expliquer|rappeler|"
            // (set 31: "Como le gusta recordarnos a la bibliotecaria, …")
            + "recordarnos|repetirnos|decirnos|ricordarci|ripeterci|dirci|lembrar-nos|dizer-nos|repetir-nos|nous rappeler|"
            + "spiegare|ricordare|lembrar|rappelle|rappelait|recuerda|recordaba|ricorda|ricordava|lembra|lembrava|reminds us|"
            + "erinnert uns|"
            // a song's or a prayer's words (set 37: "Como reza la canción, …")
            + "reza|rezaba|recita|recitava|récite|"
            // what a trade knows ("Como bien sabe cualquier tendero, …"; not the speaker's "As I know", nor
            // French "sa", a possessive too)
            + "knows|weiß|sabe|saben|sait|savent|sanno|sabem)"
        // Someone taught the speaker: "…, m'a appris ma grand-mère.", "Nonna mi ha insegnato a sempre …"
        let taughtUs = "(?i:m['’]a appris|m['’]a enseigné|m['’]apprenait|mi ha insegnato|mi insegnò|mi insegnava|me enseñó|"
            + "me enseñaba|me ensinou|me ensinava|taught me|hat mir beigebracht|nous apprenait|nous a appris|nous a enseigné|"
            + "ci insegnava|ci ha insegnato|ci insegnò|nos enseñaba|nos enseñó|nos ensinava|nos ensinou|taught us|"
            + "hat uns beigebracht|lehrte uns|ensinou-me|ensinava-me|ensinou-nos|ensinava-nos)"
        // … before "that" only where "that" cannot point at a thing ("Dad taught me that knot on the pier").
        let taughtUsBeforeThat = "(?!(?i:taught)\\b)\(taughtUs)"
        // Believing, in the third person: a claim before "that", and someone's belief after the line ("…,
        // credono da sempre in contrada.").
        let believed = "(?i:credono|credevano|crede|credeva|creen|creían|creia|cree|creía|croient|croyaient|croit|croyait|"
            + "acreditam|acreditavam|acredita|acreditava|glauben|glaubten|glaubt|glaubte|believe|believes|believed|reckon|reckons)"
        // Verbs that report a claim, a belief or a warning: they credit what follows only before
        // "that" (`complement`) and after a subject of their own ("Les bergers du Queyras affirment
        // qu'…", "My midwife was adamant that …", "Mein Schwager schwört, dass …"). Third person
        // only, and not "teaches" or a plural "say" in the present, which lines give to things ("Un
        // vecchio mappamondo insegna che …", "Les mains tachées de peinture disent qu'…").
        let claimed = "(?i:\(believed)|\(taughtUsBeforeThat)|insists|swears|swore|has sworn|claims|claimed|maintains|maintained|argues|argued|explains|explained|"
            + "reminds|reminded|keeps reminding|keeps telling|kept telling|warns|warned|assures|assured|"
            + "is convinced|was convinced|are convinced|were convinced|is adamant|was adamant|is sure|was sure|is certain|was certain|"
            + "grumbles|grumbled|jokes|joked|mutters|muttered|observes|observed|announces|announced|declares|declared|"
            + "tells us|told us|tells everyone|told everyone|tells me|told me|reckoned|likes to remind|liked to remind|like to remind|"
            + "swear|claim|insist|maintain|"
            + "ist überzeugt|war überzeugt|sind überzeugt|waren überzeugt|ist sich einig|sind sich einig|sind sich alle einig|waren sich einig|"
            // agreeing as a group ("Die Frauen im Dorfgemeinschaftshaus sind sich einig, dass …"; set 25)
            + "waren sich alle einig|están de acuerdo en|coinciden en|sont d['’]accord pour dire|sono d['’]accordo nel dire|"
            + "concordano nel dire|concordam em|concordam|estão de acordo em|all agree|agree|ist sich sicher|war sich sicher|sind sich sicher|"
            + "waren sich sicher|beharrt darauf|beharrte darauf|besteht darauf|bestand darauf|behauptet|behaupten|behauptete|"
            + "behaupteten|schwört|schwören|schwor|schworen|versichert|versicherte|erklärt|erklärte|betont|betonte|warnt|warnte|"
            + "erinnert|erinnerte|meinen|meinten|predigt|predigte|sagen|sagten|"
            + "sostiene|sostenía|sostenia|sostuvo|sostienen|aseguró|aseguro|aseguran|jura|juraba|juró|juro|juran|insiste en|"
            + "insistía en|insistia en|afirman|afirmó|afirmo|decían|decian|explica|explicaba|explicó|explico|"
            + "está convencido de|está convencida de|estaba convencido de|estaba convencida de|están convencidos de|"
            + "está segura de|está seguro de|estaba segura de|estaba seguro de|advierte|advertía|advertia|recuerda|recordaba|"
            + "promete|repiten|cuenta|"
            + "affirment|affirmaient|a affirmé|jure|jurent|jurait|juraient|a juré|assure|assurent|a assuré|prétend|prétendent|"
            + "soutient|soutiennent|soutenait|a déclaré|déclarent|déclarait|explique|expliquait|a expliqué|rappelle|aime rappeler|"
            + "rappelait|répètent|est convaincu|est convaincue|était convaincu|était convaincue|"
            + "sont convaincus|est persuadé|est persuadée|était persuadé|était persuadée|certifie|"
            + "afferma|affermano|ha affermato|giura|giurano|giurava|ha giurato|assicura|assicurava|ha assicurato|"
            + "sostengono|spiega|spiegava|ha spiegato|ricorda|ricordava|dicevano|è convinto|è convinta|"
            + "era convinto|era convinta|è sicuro|è sicura|era sicuro|era sicura|insiste|ripetono|garantisce|garantiva|racconta|"
            + "afirmam|afirmou|juram|jurava|jurou|garantem|garantiu|assegura|sustenta|sustentava|explicava|explicou|"
            + "lembrava|vive a lembrar|vive dizendo|diziam|"
            + "tem certeza de|tinha certeza de|insiste em|insistia em|repetem|conta|desconfia|"
            // promises and forecasts ("The label on Gran's jar promises that …"), hearsay ("Karl Valentin
            // soll einmal bemerkt haben, dass …")
            + "promises|promised|predicts|predicted|verspricht|versprach|bemerkte|bemerkt haben|gesagt haben|geschrieben haben|"
            + "prometía|prometia|predice|predijo|promet|promettait|prédit|promette|prometteva|prevê|"
            // opinions held ("El cartero opina que …", "La frutera mantiene que …", "era certa che …")
            + "opina|opinaba|opinan|mantiene|mantenía|mantenia|presume de|presumía de|presumia de|defende|defendia|"
            + "ritiene|riteneva|ritengono|nel ritenere|è certa|è certo|era certa|era certo|avverte|avvertiva|assicurano|"
            + "è persuaso|è persuasa|era persuaso|era persuasa|sono persuasi|acha|achava|acham|achavam|"
            + "advirtió|advertiu|avvertì|a averti|will tell you|will tell anyone|will explain|ama ricordare|amava ricordare|"
            // what someone will tell you ("Le marchand de marrons vous expliquera que …"; set 19) and certainties held
            // ("Os azulejadores têm por certo que …"), explaining in the plural ("Ad Agnone ti spiegano che …")
            + "vous expliquera|vous dira|te dira|te dirá|te explicará|le dirá|ti dirà|vi dirà|ti spiegherà|vai dizer-te|"
            + "wird dir sagen|wird ihnen sagen|wird ihnen erzählen|têm por certo|tem por certo|tinha por certo|tinham por certo|"
            + "dan por hecho|da por hecho|daba por hecho|tienen por cierto|tient pour acquis|tiennent pour acquis|"
            + "spiegano|explican|expliquent|explicam|"
            + "dava per certo|davano per certo|beteuert|beteuerte|"
            + "est certain|est certaine|était certain|était certaine|zu betonen|zu behaupten|zu versichern|joke|argue|"
            // joking, confiding ("Mein Vater witzelt gern, dass …", "La fleuriste m'a confié qu'…"), lore
            // that holds in a trade ("In der Schneiderzunft gilt, dass …")
            + "witzelt|witzelte|scherzt|scherzte|spottet|spottete|bromea|bromeaba|plaisante|scherza|scherzava|brinca com|"
            + "confided|confides|vertraute mir an|me confió|me confiaba|m['’]a confié|m['’]a confiée|me confiait|"
            + "mi ha confidato|mi confidava|me confiou|me confidenciou|asseguram|asseguravam|assegurou|gilt|galt|"
            // what a thing keeps repeating or reports ("Everyone in our village repeats that …", "Meine
            // Fitness-App meldet jeden Morgen, dass …")
            + "repeats|meldet|meldete|brinca|brincava|bromean con|bromea con|bromeaba con|brincam com|scherzano|plaisantent|"
            // a lesson drilled in ("Il professore di greco ci ha inculcato che …")
            + "inculcato|inculcava|inculcó|inculcou|meteu-nos na cabeça|meteu-me na cabeça|eingebläut|"
            // "meint" and confessing ("Gips, meint der Stuckateur …, vergesse nie …", "…, confessa o senhor Armindo, …"; set 27)
            + "meint|confessa|confessava|confiesa|confesaba|avoue|avouait|gesteht|gestand|admits|admitted|"
            // what a chronicle records ("Una vieja crónica municipal recoge que …"; set 33)
            + "recoge|recogía|recogen|relata|relataba|rapporte|rapportait|records|recorded|vermerkt|"
            // (set 31: "Notre prof de français nous a seriné toute l'année qu'…")
            + "a seriné|seriné|serinait|a rabâché|rabâchait|"
            // beliefs long held, participles after an auxiliary, certainty in the plural, a warning in the plural,
            // an oath with its idiom ("Beekeepers have long held that …", "Mia zia ha sempre
            // sostenuto che …", "Le habitué … sono sicure che …", "Os nadadores-salvadores … avisam que …",
            // "Die Metzger … halten es für ausgemacht, dass …"; set 29)
            + "have long held|has long held|have always held|has always held|had long held|sustentou|"
            + "(?:ha|han|hanno|avait|a|ont|tem|têm|tinha|había|habían|avevano|aveva)\\s+(?:(?:sempre|siempre|toujours)\\s+)?"
            + "(?:sostenuto|sostenido|soutenu|sustentado|affermato|giurato|jurado|juré|afirmado|asegurado|assuré|affirmé)|"
            // … and a belief always held ("Ma sœur a toujours pensé qu'une écluse …"; set 33)
            + "(?:ha|han|hanno|avait|a|ont|tem|têm|tinha|había|habían|avevano|aveva|has|had|have)\\s+(?:sempre|siempre|toujours|always)\\s+"
            + "(?:pensé|cru|pensato|creduto|pensado|creído|creido|acreditado|thought|believed)|"
            + "sono sicuri|sono sicure|erano sicuri|erano sicure|sono convinti|sono convinte|erano convinti|están seguros de|"
            + "están seguras de|estaban seguros de|sont sûrs|sont sûres|étaient sûrs|estão certos de|têm a certeza de|"
            + "tem a certeza de|tinha a certeza de|avisam|avisan|avisaban|avisavam|avertissent|avvisano|warnen|"
            + "confesó|confessou|a avoué|ha confessato|"
            + "confessed|"
            + "defiende|defienden|défend|défendent|difende|difendono|verteidigt|presumen de|presumían de|presumian de|"
            // (set 35: "Grand-mère Lucienne tenait pour certain que …", "Os vindimadores
            // têm para si que …")
            + "tenait pour certain|tient pour certain|"
            + "tenaient pour certain|tenía por cierto|tiene por cierto|teneva per certo|têm para si|tem para si|tinha para si|"
            + "tienen para sí|held it as gospel|holds it as gospel|hold it as gospel|took it as gospel|"
            // (set 37: "Los ciclistas veteranos tienen clarísimo que …")
            + "tienen claro|tiene claro|tenía claro|tenían claro|tienen clarísimo|tiene clarísimo|"
            + "hält es für ausgemacht|halten es für ausgemacht|hielt es für ausgemacht|hält es für erwiesen|"
            + "halten es für erwiesen|hält es für sicher|halten es für sicher)"
        // Verbs of speaking in a manner, which credit words only as the speaker's verb after them,
        // before its subject ("…, spiegava il fornaio Beppe.", "…, resmungava seu Adalberto no balcão.").
        let spoke = "(?i:explained|grumbled|muttered|whispered|sighed|joked|laughed|replied|added|warned|explains|grumbles|"
            + "mutters|whispers|sighs|jokes|laughs|replies|adds|warns|"
            + "erklärte|brummte|murmelte|seufzte|flüsterte|lachte|antwortete|warnte|spottete|grinste|"
            + "explicaba|explicó|murmuraba|susurraba|suspiraba|bromeaba|respondía|añadía|advertía|refunfuñaba|gruñía|"
            + "expliquait|murmurait|soupirait|plaisantait|chuchotait|grommelait|ajoutait|répondait|bougonnait|"
            + "spiegava|mormorava|sospirava|scherzava|brontolava|aggiungeva|rispondeva|sussurrava|borbottava|"
            + "explicava|murmurava|suspirava|brincava|resmungava|respondia|acrescentava|avisava|reclamava|"
            // the present of swearing, joking and insisting, the speaker after it ("…, jura la frutera de la
            // esquina.", "…, bromea mi sobrino.", "…, juram os tosquiadores de Mértola."; set 24)
            + "swears|swear|insists|insist|jura|juran|juram|jure|jurent|giura|giurano|schwört|schwören|bromea|bromean|"
            + "plaisante|plaisantent|scherza|scherzano|witzelt|insiste|insisten|insistem|insistent|insistono|"
            + "a soufflé|m['’]a soufflé|prévient|a prévenu|avait prévenu|avverte|advierte|avisa|brinca|brincam|ironiza|ironizza|ironise|"
            + "ricane|ricanait|ronchonne|bougonne|grogne|"
            // (set 33: "…, versprach die Frau am Stand …", "…, afiança o ditado; …")
            + "versprach|verspricht|versicherte|beteuerte|afiança|afiançava|"
            // (set 37: "…, sentenziava il nonno …", "…, belehrte mich meine Schwester …", "…, presume mi cuñado, …",
            // "…, garantem os vindimadores de Favaios."; not "assure", "assicura" or "asegura", which also mean
            // "secures": "…, assicura il nodo con due giri.")
            + "sentenziava|sentenzia|sentenciaba|sentencia|sentenciava|sentencie|tranchait|belehrte mich|belehrt mich|"
            + "belehrte uns|prophezeite|prophezeit|profetizaba|profetizava|profetizzava|prédisait|"
            // (a person after it: not "…, presume nothing.", "…, garante de que …")
            + "(?:presume|presumía|presumia|garante)(?=\\s+(?i:mi|mis|meu|minha|o|a|os|as|el|la|los|las|su|tu|seu|sua)\\s)|"
            + "garantem|garantiza|garantizan|garantit|garantissent|garantisce|garantiscono|afirmam|afirman|affirment|"
            + "affermano|behaupten|beteuern|versichern|versichert|meint|avisam|avisan|avertissent|avvisano|warnen|"
            + "suele decir|solía decir|costuma dizer|costumava dizer|aimait dire|aime dire|amava dire|ama dire|soleva dire|"
            + "suele repetir|pflegt zu sagen|"
            // (set 35: "…, behauptet der Reiseführer.", "…, assicurava il bigliettaio.", "…, m'a certifié la dame du chalet
            // voisin.", "…, asseguram os velhos do Pinhão.", "…, costumava repetir o caseiro.", "…, acha o meu tio.")
            + "behauptet|behauptete|verkündet|verkündete|beteuert|assicurava|aseguraba|assurait|assegurava|m['’]a expliqué|"
            + "m['’]a assuré|m['’]a certifié|m['’]a juré|m['’]a confié|nous a assuré|nous a expliqué|asseguram|aseguran|"
            + "assurent|assicurano|versichern|insistia|insistía|insisteva|insistait|costumava repetir|costumava dizer|"
            + "solía decir|solía repetir|soleva dire|soleva ripetere|era solito dire|avait coutume de dire|acha|achava|"
            + "opina|opinaba|opinava)"
        // A habit of repeating, in the past ("Ripeteva la mia prima capa di …", "…, repetía el monitor …"; sets 27, 31)
        let repeatedPast = "ripeteva|ripetevano|repetía|repetia|repetían|repetian|répétait|répétaient|repetiam|wiederholte"
        let saidBefore = "(?i:dijo|decía|decia|dice|escribió|escribio|disait|l['’]a dit|a dit|écrivait|ecrivait|disse|diceva|"
            + "scrisse|scriveva|dizia|diz|escreveu|"
            // repeating and warning ("Ya lo advertía el sastre del barrio, …", "Mi ripeteva sempre mio padre, …"; set 31)
            + "advertía|advertia|avisaba|avisava|avvertiva|prévenait|\(repeatedPast))"
        let like = "(?i:as|like|wie|como|comme|come|conforme)"
        // After a speaker set off by commas, what does not follow a credit but a list of what people do:
        // "The kettle whistles, my father mutters, and the house wakes up."
        let listGoesOnNot = "(?!(?i:and|then|while|und|y|et|e|ed)\\b)"
        // Tradition that has it, opening the line or before what it has ("Reza a tradição no Alentejo que …"; sets 25, 29)
        let traditionHasIt = "reza a tradição|reza a tradicao|reza la tradición|reza la tradicion|manda a tradição|manda la tradición|"
            + "a tradição manda|la tradizione vuole|vuole la tradizione|la tradition veut|tradition has it|"
            + "la tradición manda|la tradicion manda|"
            // (set 39: "Manda o provérbio não deixar para amanhã …")
            + "manda o provérbio|manda o ditado|manda el refrán|manda el dicho|vuole il proverbio|vuole il detto"
        // "According to": `crediting` names whose words or view follow; "selon" and "secondo" also
        // mean "depending on" ("…, selon la saison.") and count only before a name or a saying.
        let crediting = "(?i:according to|laut|según|segun|segundo|d['’]après|d['’]apres|de acuerdo con|de acordo com|"
            + "en opinión de|en opinion de|na opinião de|na opiniao de|in the opinion of|de l['’]avis de|à l['’]avis de|"
            + "a parere di|nach ansicht|nach meinung|"
            // "Au dire des chauffeurs de la gare, …", "Na opinião do meu avô, …", "No entender do presidente do clube, …" (set 29)
            + "(?:au dire|aux dires|na opinião|na opiniao|en opinión|no entender|"
            // (set 35: "A parere del mio vicino, …", "A juicio de mi tía Encarna, …", "Nach Aussage des Schützenkönigs …")
            + "a parere|a juicio|na ótica|na otica|nach aussage|laut aussage)(?:\\s+d\\p{L}*)?|in the view of)"
        let according = "(?:\(crediting)|(?i:selon|secondo))"
        // Openers that credit what follows to someone ("In the words of …,", "Frei nach …,",
        // "Stando all'etichetta …,").
        let credit = "(?i:in the words of|to quote|paraphrasing|quote by|quote from|um es mit|frei nach|si l['’]on en croit|"
            + "si on en croit|à en croire|a dar retta a(?:l|lla|llo|i|gli|lle|ll['’])?|if you believe|"
            + "nach einem gedanken von|nach den worten von|zitat von|en palabras de|parafraseando|cita de|"
            + "pour reprendre les mots de|citation de|nelle parole di|stando a quanto|parafrasando|citazione di|"
            + "stando a(?:l|lla|llo|i|gli|lle|ll['’])?|a detta d(?:i|el|ella|ello|ei|egli|elle|ell['’])|"
            + "nas palavras de|citação de|citacao de|en palabras del|nelle parole del|nelle parole della|nas palavras do|"
            + "nas palavras da|a sentire|a julgar pela|a julgar pelo|a julgar por|"
            // "À l'entendre, ma voisine, rien ne vaut …" (set 29)
            + "à l['’]entendre|à les entendre|a sentirl[aoi]|a oírl[aoe]|a oirl[aoe]|"
            // (set 33: "À entendre le patron du café, …", "…, to hear the judges tell it, …")
            + "à entendre|to hear(?=\\s[^,]{1,30}?\\stell it)|"
            // (set 37: "Las mejores naranjas, a decir de la frutera …", "A quanto si racconta in paese, …")
            + "a decir de(?:l|\\s+la|\\s+los|\\s+las)?|a quanto si racconta|a quanto si dice|a quanto dicono|"
            + "por lo que se cuenta|por lo que cuentan|pelo que se conta|pelo que contam|à ce qu['’]on raconte)"
        let complement = "(?i:that|dass|que|qu['’]|che)"
        // Learning something from someone ("… learned from his master that …").
        let learned = "(?i:I learned|I learnt|learned|learnt|habe ich gelernt|lernte ich|lernte|lernten|aprendí|aprendi|"
            + "aprendimos|aprendemos|aprendeu|aprendeste|j['’]ai appris|a appris|avons appris|ho imparato|imparai|imparò|"
            + "abbiamo imparato)"
        // A short aside between the verb and "that": "The hymn book … warns, in pencil, that …".
        let aside = "(?:\\s*,[^,.!?]{1,45},)?"
        // What may stand between the verb and "that": adverbs of habit and the one told.
        let between = "(?i:once|always|often|me|us|him|her|mir|uns|immer|einmal|oft|siempre|una|vez|nos|nous|toujours|souvent|"
            + "un|jour|sempre|mi|ci|spesso|certa|gern|gerne|mich|dich|still|never|to|everyone|anyone|seit|jahren|tagen|jeher|noch|heute|"
            + "you|te|vous|dir|ti|lhe|"
            + "todos|tout|le|monde|tutti|ancora|também|tambem|también|hoy|aujourd['’]hui|oggi|hoje|"
            + "every|morning|day|jeden|morgen|tag|cada|mañana|día|todas|as|manhãs|dia|chaque|matin|ogni|mattina|giorno|"
            + "volontiers|hartnäckig|felsenfest|\\p{L}+ly|\\p{L}+mente|"
            // "… glauben fest, dass …", "… schwören darauf, dass …", "… répétait sans cesse qu'…", "… soutenait mordicus
            // que …", "A fitness app told me this morning that …" (set 37)
            + "fest|darauf|drauf|sans|cesse|mordicus|this|yesterday|today|"
            // "… me repitió mil veces que …", "… predigt ständig, dass …", "… nos advertía cada invierno de que …" (set 29)
            + "mil|veces|vezes|fois|volte|mal|times|thousand|hundred|cent|cien|cento|cem|mille|tausend|hundert|ständig|dauernd|"
            + "stets|invierno|verano|inverno|verão|hiver|été|estate|winter|summer|semana|woche|semaine|settimana|week|"
            + "abend|abends|morgens|nacht|night|evening|soir|sera|noche|noite|tarde|toute|l['’]année)"
        // Not after a first-person or second-person subject: "je me répète que …" is the speaker's
        // own thought, "We swore that …" the speaker's own promise; nor after a modal or a negation,
        // where the verb is an infinitive or denied ("Man könnte meinen, dass …", "Nobody can claim
        // that …").
        let notSpeaker = "(?<!\\b[Jj]e\\sme\\s)(?<!\\b[Jj]e\\s)(?<!\\bI\\s)(?<!\\b[Ii]ch\\s)(?<!\\b[Yy]o\\s)(?<!\\b[Ee]u\\s)(?<!\\b[Ii]o\\s)"
            + "(?<!\\b[Ww]e\\s)(?<!\\b[Ww]ir\\s)(?<!\\b[Nn]ous\\s)(?<!\\b[Yy]ou\\s)"
            + "(?<!\\b(?i:nicht|kann|kannst|könnte|muss|musst|darf|will|soll|sollte|can|could|would|might|must|should|may|"
            + "cannot|can['’]t|won['’]t|never|not)\\s)"
        // The subject of "that", so a question opening with "who" is none: "Chi ha detto che il
        // brodo … non può consolare?"
        let notWho = "(?!\\P{L}*(?i:who|wer|quién|quien|qui|chi|quem)\\b)"
        // A subject that is nobody credits no one: "Nobody tells you that …", "Personne ne vous dit
        // que …", "Nessuna guida turistica ricorda che …" are the line's own words.
        let notNobody = "(?!\\P{L}*(?i:nobody|no one|niemand|kein|keine|keiner|nadie|ningún|ninguna|ninguno|personne|"
            + "aucun|aucune|nessuno|nessuna|nessun|ninguém|nenhum|nenhuma)\\b)"
        // A subject of its own, within `reach` characters, then the verb of a claim: the opening the
        // frames of claims share ("Les bergers du Queyras affirment qu'…", "My aunt swears the jam …").
        let subjectThen = { (reach: Int) in "^\(notWho)\(notNobody)\\P{L}*\\p{L}[^.!?]{0,\(reach)}?\\s\(notSpeaker)" }
        let notComparison = "(?<!(?i:más|mas|mejor|peor|menos|più|meglio|peggio|meno|plus|mieux|moins|mais|melhor|pior|more|better|less)\\s)"
        let end = #"\s*[.!?…]?\s*$"#
        // A word between a verb that tells someone and "that": not "of" ("The smell of tar reminds me of that
        // summer …", where "that" is no complement) nor any of `also`.
        let told = { (also: String) in "(?:\\s+(?!(?i:of|about|von|vom|di|du|des|del|da|do|dos|das\(also))\\b)\\p{L}+)" }
        // What "for my …" names when it is an occasion or the speaker's own view, not a person.
        let occasion = "(?i:birthday|wedding|anniversary|party|trip|first|last|next|part|money|taste|geburtstag|hochzeit|"
            + "reise|erste|ersten|cumpleaños|boda|aniversario|fiesta|viaje|primer|primera|parte|gusto|anniversaire|mariage|"
            + "fête|voyage|premier|première|goût|compleanno|matrimonio|festa|viaggio|primo|prima|aniversário|"
            + "casamento|viagem|primeiro|primeira|mind|surprise|delight|relief|shame|horror|dismay|amazement|knowledge|"
            + "left|right|door|house|home|room|car|garden|ears|eyes)\\b"
        let article = "(?i:the|an?|old|der|die|das|im|el|la|le|il|lo|o|a|un|una|une|ein|eine|einem|vieux|vecchio|viejo|velho|alte|alten)"
        // Things that carry printed words: packets, labels, signs, manuals, leaflets, boards.
        let printedThing = "(?i:packet|package|packaging|label|tin|jar|wrapper|carton|leaflet|brochure|guidebook|advert|"
            // a travel guide ("La guía de viajes aconseja …"; set 24)
            + "guía|guia|guida|guide|travel guide|"
            // signs, manuals and apps promise and insist too ("L'enseigne de la crêperie promet …"; set 18)
            + "sign|manual|cartel|letrero|aplicación|enseigne|panneau|manuel|appli|insegna|cartello|manuale|"
            + "placa|aplicação|recipe|recette|receta|ricetta|receita|rezept|"
            + "advertisement|paquete|envase|etiqueta|bolsita|folleto|anuncio|paquet|emballage|étiquette|sachet|notice|"
            + "publicité|pacchetto|confezione|etichetta|scatola|barattolo|bustina|opuscolo|pubblicità|pacote|embalagem|"
            + "rótulo|rotulo|saquinho|folheto|anúncio|anuncio|caja|boîte|caixa|box|tarro|frasco|bote|vasetto|lata|"
            // boards, calendars, a medicine's leaflet, a sack (set 29)
            + "chalkboard|blackboard|calendar|calendario|calendrier|calendário|kalender|pizarra|ardoise|lavagna|"
            + "prospecto|bugiardino|beipackzettel|bula|saco|sack|sac|sacco|sacchetto|"
            // seed envelopes in the plural, a shop's board (set 35)
            + "bustine|tabuleta|letreiro|placard|catalogue|catalog|katalog|catálogo|catalogo|azulejo|"
            // noticeboards, seed envelopes, cookbooks (set 31)
            + "noticeboard|notice board|poster|affiche|cartaz|aviso|avviso|sobre de|seed packet|envelope|enveloppe|busta|"
            + "cookbook|cook book|recipe book|libro de cocina|livre de cuisine|libro di cucina|livro de cozinha|"
            // bottles and a festival's programme (set 33)
            + "bottle|botella|bouteille|flacon|bottiglia|flacone|garrafa|frasco|programme|programa|programma|"
            // instructions (set 37)
            + "istruzioni|instructions|instrucciones|instruções|anleitung|gebrauchsanweisung|bedienungsanleitung)"
        // … and German ones, which end compounds ("Die Waschmittelpackung verspricht …", "Das Saatguttütchen verspricht …")
        let printedCompound = "\\p{L}*(?i:packung|etikett|tüte|tütchen|päckchen|beutel|schachtel|zettel|prospekt|reiseführer|"
            + "werbung|anleitung|app|schild|dose|flasche|programm)"
        // Putting or hammering a lesson into someone's head.
        let intoHead = "(?i:metía|metia|metió|metieron|metían|metteva|messo|mis|mettait|meteu|meteram|metiam|martelou|martelava|"
            + "martellato|martellava|machacó|machacaba|enfoncé|enfonçait|cacciato|ficcato)"
        let head = "(?i:en la cabeza|in testa|dans la tête|dans le crâne|na cabeça|na cabeca)"
        let possessive = "(?i:my|our|mein|meine|meiner|meinem|unser|unsere|mi|mis|nuestro|nuestra|mon|ma|mes|notre|mio|mia|"
            + "nostro|nostra|meu|minha|nosso|nossa|o\\s+meu|a\\s+minha|il\\s+mio|la\\s+mia)"
        // Relatives and neighbours, whose view a line may give as theirs (set 33).
        let kin = "(?i:tia|tio|tía|tío|tante|oncle|zia|zio|avó|avô|avo|abuela|abuelo|grand-mère|grand-père|mémé|pépé|nonna|"
            + "nonno|mamma|mãe|mae|madre|mère|padre|père|pai|papà|aunt|auntie|uncle|gran|granny|grandma|grandad|grandpa|oma|"
            + "opa|onkel|vater|mutter|vizinha|vizinho|vecina|vecino|voisine|voisin|vicina|vicino|neighbour|neighbor|"
            + "nachbarin|nachbar|madrinha|padrinho|madrina|padrino|marraine|parrain|mother|father|mum|mom|dad|sister|brother)"
        // A rule or a lesson named as someone's after a separator, in the Romance languages: "— conselho do meu tio", "…: era
        // la filosofia del signor Bonetti" (the verb and the article the name may come after).
        let namedAsVerb = "(?i:é|era|c['’]est|c['’]était|è|es|fue|foi|fu)"
        let namedAsArticle = "(?i:a|la|o|le|il|el|l['’]|una|uma|une|un)"
        return [
            // "… — Ada Lovelace", "… - Seneca", "… ~ Anonymous", "… — Camões, 1572" (a hyphen or
            // tilde only after a space, so "an X-Ray." is not one)
            "(?:\\s[~-]|[—–―])\\s*\(name)(?:,\\s*[\\p{L}\\d .'’-]+)?\(end)",
            // "… .” – an old Yorkshire farmer": a dash after the sentence's end, then its speaker (never asked: "—
            // troppo poetica?" is a question back)
            #"[.!?…"”“»]\s*(?:[—–―~]|\s-)\s*\p{L}[^.!?]{0,60}[.!]?\s*$"#,
            // "… (Mark Twain)", "… (Opa Karl, Weihnachten 1978)", "… [Anne-Marie Le Goff, 1987]"; not a note that ends
            // a sentence of its own inside the brackets ("… (Eleven words, present tense.)": `noteInBrackets`)
            #"[(\[]\s*\p{Lu}[^()\[\]]{0,60}(?<![.!?…\s])\s*[)\]]\s*[.!?…]?$"#,
            // "… - anonymous" in lower case (a capitalised one is a name above)
            #"(?i)(\s[~-]|[—–―])\s*(anonymous|unknown author|anonym|anónimo|anonyme|anonimo|anônimo)\s*[.!?…]?$"#,
            // "as Wilde said", "wie Goethe sagte"
            "(?:^|[\\s,;])\(like)\\s+\(name)\\s+\(said)\\b",
            // "As Winston Churchill once said, …", "Como dijo una vez mi profesor de música, …",
            // "Comme le disait souvent mon grand-père, …", "So hat es Udo einmal gesagt, …"
            "^\\P{L}*(?:\(like)|So\\s+hat\\s+es)\\s[^,:;]{0,60}?\\b(?:\(said)|\(sang))\\b[^,:;]{0,60}[,:;]",
            // "como dijo Cervantes", "comme disait Victor Hugo", "come disse Leopardi"
            "(?:^|[\\s,;])\(like)\\s+\(saidBefore)\\s+\(name)",
            // "according to Thoreau", "laut Nietzsche", "selon Rousseau"; "D'après le vieux Léon, …"
            "(?:^|[\\s,;])\(according)\\s+\(name)",
            "^\\P{L}*\(according)\\s+[^,:;]{0,30}?\\b\\p{Lu}[^,:;]{0,30}[,:;]",
            // "According to my grandmother, …", "Secondo il mio vecchio allenatore, …"
            "^\\P{L}*\(according)\\s+(?i:(?:the\\s+|il\\s+|la\\s+|o\\s+|a\\s+|le\\s+|el\\s+)?(?:\(possessive)|unserer|miei|seu|dona|don|\(kin)))\\b[^,:;]{0,40}[,:;]",
            // "In the words of Maya Angelou, …", "Frei nach Wilhelm Busch, …", "Zitat von X: …"
            "^\\P{L}*\(credit)(?:\\s|(?<=['’]))[^,:;]{1,60}[,:;]",
            "^\\P{L}*\(credit)\\s+\(name)",
            // "Mark Twain wrote that …", "Ma mère affirmait que …", "Schon Kästner wusste, dass …",
            // "Mi maestra de primaria, doña Julia, nos enseñó que …"
            "^\(notWho)\(notNobody)[^.!?]{0,70}?\(notSpeaker)\\b\(said)(?:\\s+\(between)){0,3}\\s*,?\\s+\(complement)\\b",
            // "Les bergers du Queyras affirment qu'…", "Mi compañera está convencida de que …": a claim
            // after a subject of its own (a line opening with the verb is advice: "Ricorda che …")
            subjectThen(80) + "\(claimed)(?:-(?i:me|nos|lhe|lhes|te))?(?:\\s+\(between)){0,3}\(aside)\\s*,?\\s+\(complement)\\b",
            // An opinion given as someone's: "For my father-in-law, no Sunday is complete without …",
            // "Para os artesãos do Alto do Moura, o barro bom …" (people of a place); not the
            // speaker's own ("For my part, I …"), nor an occasion ("Para mi boda, mi tía bordó …")
            "^\\P{L}*(?i:for|für|para|pour|per|to)\\s+(?:\(possessive)\\s+(?!\(occasion))|(?i:los|las|os|as|les|i|gli|le|die)\\s+\\p{L}+\\s+"
                + "(?i:de|do|da|dos|das|des|du|di|del|della|dei|von|vom|aus)\\s(?=\\p{Lu}))[^,.!?]{1,40},\\s+"
                + "(?!(?i:I|we|ich|wir|yo|je|j['’]|nous|io|noi|eu|nós|nos)\\b)",
            // "Contaba mi madre que …" (not "Contaba los días que …")
            "^\\P{L}*(?i:contaba|contava|raccontava|racontait)\\s+\(possessive)\\s[^.!?]{0,40}?\\s\(complement)\\b",
            // "Dai pescatori di Cesenatico ho imparato che …", "Vom Meister in Lauscha lernte der
            // Lehrling, dass …", "The apprentice learned from his master that …", "aprendemos com a
            // dona Fátima que …"
            "^\\P{L}*(?i:from|von|vom|de|del|da|dai|dal|dalla|dagli|dalle|do|dos|das|des|du)\\s[^,.!?]{1,50}?\\s"
                + "\(learned)\\b[^.!?]{0,30}?\\s*,?\\s+\(complement)\\b",
            "\\b\(learned)\\s+(?i:from|von|vom|de|del|da|dai|dal|dalla|dagli|dalle|do|dos|das|des|du|com|con|avec)\\s"
                + "[^.!?]{1,40}?\\s\(complement)\\b",
            // "Echte Gärtner, beteuert mein Onkel, gießen …": the speech verb first (its speaker first: below)
            ",\\s*(?:(?i:so|wie)\\s+)?(?:(?i:ci|mi|me|nos|m['’])\\s*)?(?:\(claimed)|\(said))\\s+(?:\(possessive)|\(article))\\s[^,]{1,30},\\s",
            // "Every piano has one stubborn note, the tuner told me, and …", "…, avisava o velho Custódio, porque …" (set 29)
            ",\\s*(?:\(article)|\(possessive))\\s[^,]{1,30}?\\s(?i:told me|told us|tells me|tells us|once told me|assured me|"
                + "warned me|me dijo|me contó|nos dijo|m['’]a dit|m['’]a raconté|mi ha detto|mi disse|me disse|disse-me|"
                + "hat mir erzählt|erzählte mir|sagte mir)(?:\\s*,\\s|\\b[^,]{0,30}\(end))",
            ",\\s*\(spoke)\\s+(?:\(possessive)|\(article))\\s[^,]{1,30},\\s",
            // "…, as the old fishermen on our harbour wall keep repeating.", "…, comme le répète inlassablement mon
            // beau-père.", "…, as people in our village have said for generations." (set 29)
            ",\\s*\(like)\\s+(?:(?i:le|lo|l['’]|es)\\s*)?[^,]{0,50}?\\b(?:\(said)|(?i:keep repeating|keeps repeating|"
                + "kept repeating|keep saying|keeps saying|kept saying|have said|has said|had said|told me|told us|say|répète|"
                + "répètent|ripete|ripetono|repite|repiten|repete|repetem|sagen|sagt|"
                // (set 33: "…, wie Onkel Rudi jedes Jahr beim Vereinsfest versichert.")
                + "versichert|beteuert|behauptet|schwört|swears|insists|assure|jure|assicura|giura|asegura|jura|garante))\\b[^,]{0,40}\(end)",
            // "El afinador, según me contó mi madre, escuchaba …", "…, come mi disse il nonno, …" (set 29)
            "(?:^\\P{L}*|,\\s*)(?i:según|segun|segundo|come|comme|como|as|wie)\\s+(?i:me l['’]a|nous l['’]a|me|nos|mi|ci|m['’]|"
                + "nous|lo|le|l['’]|ce|uns|mir)\\s*(?:\\p{L}+\\s+)?(?i:contó|dijo|contaba|decía|explicó|raccontò|raccontava|disse|"
                + "diceva|spiegò|raconté|racontait|disait|dit|expliquait|contou|contava|dizia|explicou|told me|told us|"
                // (set 39: "Comme l'assure la notice, ce cadenas …")
                + "assure|assurait|affirme|affirmait|promet|promettait|asegura|afirma|promete|assicura|afferma|promette|"
                + "garante|versichert|verspricht|behauptet|"
                + "explained|erzählte|sagte|erklärte)\\b",
            // "They say in Cornwall the sea gives back …" (not "They say goodbye …")
            "^\\P{L}*(?i:they say|people say|folks say|everyone says|everybody says)\\s+(?:(?i:in|at|around|round|here|down|up|"
                + "on|over)\\b[^,.!?]{0,30}?\\s)?(?i:the|a|an|it|it['’]s|there|there['’]s|you|every|no|all|if|when|that)\\b",
            // What anyone of a trade will tell you: "Ask any launderette owner and they'll say …", "Pregunta a cualquier
            // pescador y te dirá …" (set 29)
            "\\b(?i:any|anyone|cualquier|qualsiasi|qualunque|qualquer|n['’]importe quel|n['’]importe quelle|n['’]importe qui|"
                + "jeder|jede|jedem|jeden)\\b[^.!?]{0,50}?\\b(?i:will tell you|['’]ll tell you|"
                // (saying a clause, not "… will say hello to the goat")
                + "(?:['’]ll|will)\\s+(?:say|swear)\\s+(?i:that|the|a|an|it|it['’]s|there|there['’]s|you|every|no one|nobody)|"
                + "te dirá|te lo dirá|vous dira|vous le dira|te dira|te le dira|ti dirà|te lo dirà|ve lo dirà|"
                + "vai dizer-te|vai-te dizer|te vai dizer|wird dir sagen|wird es dir sagen|sagt dir|te dice|ti dice|vous dit|"
                + "te diz|diz-te)\\b",
            // Hearsay set off inside the line: "Los limpiacristales, por lo visto, piensan …", "Hundefriseure wissen
            // angeblich, dass …" (set 29)
            ",\\s*(?i:por lo visto|pelos vistos|paraît-il|parait-il|apparently|reportedly|supposedly|allegedly|angeblich|"
                + "a quanto pare|al parecer|ao que parece|apparemment|"
                // what everyone knows (set 33: "Au village, c'est bien connu, la boulangère …", "Chi dorme non piglia pesci,
                // si sa, eppure …")
                + "c['’]est bien connu|c['’]est connu|comme chacun sait|si sa|come si sa|se sabe|como se sabe|sabe-se|"
                + "como todos sabemos|as everyone knows|as we all know|bekanntlich|wie jeder weiß|es bien sabido|é bem sabido)\\s*,",
            "\\b(?i:angeblich|reportedly|supposedly|allegedly)\\s*,?\\s+\(complement)\\b",
            // "Schon meine Großmutter wusste: …", "My grandmother always said: …"
            "^\\P{L}*(?:(?i:schon|already|ya|déjà|già|já|even)\\s+)?\(possessive)\\s+(?:\\p{L}+\\s+){0,2}?\(said)"
                + "(?:\\s+(?i:immer|always|siempre|toujours|sempre|once|einmal|oft|often))?\\s*:",
            // A claim before a colon, after a subject of its own (not a saying: "… et me dit : elle repartira …" is a
            // scene), or a claim or a saying with its object before it: "Il giornalaio
            // all'angolo insiste: …", "Les apiculteurs du Vercors l'assurent, …", "Le manuel du code de la route le
            // rappelle : …" (set 29)
            // (the strong claims only: "The conductor announces: next stop, …" is a scene)
            subjectThen(60) + "(?i:insists|insisted|swears|swore|is adamant|was adamant|is convinced|was convinced|believes|"
                + "reckons|insiste|insistía|jura|juraba|assure|affirme|affirmait|jure|giura|assicura|afferma|garante|afirma|"
                + "assegura|behauptet|schwört|beharrt darauf|besteht darauf|ist überzeugt|sind überzeugt|ist sich sicher|"
                // (set 37: "Die Leute im Dorf sind sich sicher: …", "Mon ancienne directrice de colo était formelle : …")
                + "sind sich sicher|waren sich sicher|sind sich einig|était formel|était formelle|est formel|est formelle|"
                + "era tajante|era categórica|era categórico|era categorica|era categorico)\\s*:",
            subjectThen(60) + "(?i:l['’]|le|lo)\\s*(?i:assure|assurent|affirme|affirment|jure|jurent|dit|disent|répète|répètent|"
                + "rappelle|rappellent|confirme|confirment|garantit|savent|sait|dice|dicen|asegura|aseguran|afirma|afirman|jura|"
                + "juran|repite|repiten|recuerda|saben|sabe|dicono|assicura|assicurano|giura|giurano|ripete|ripetono|ricorda|"
                + "sanno|sa|diz|dizem|garante|garantem|juram|repete|repetem|lembra|sabem)(?:\\s+(?i:bien|bene|bem|muy bien|"
                + "très bien|mieux que moi|meglio di me|mejor que yo|melhor do que eu|toujours|sempre|siempre|depuis toujours))?"
                + "\\s*[,:]",
            // A saying that wants or teaches: "Un vieux proverbe picard veut que …", "O provérbio antigo lá da terra
            // ensina que …" (set 29)
            "\\b(?i:\(DeterministicGate.sayingNouns))\\b(?:\\s+[^\\s,.!?]+){0,4}?\\s+(?i:veut|voulait|vuole|voleva|quiere|quería|"
                + "manda|mandava|mandaba|reza|rezaba|rezava|ensina|enseña|enseigne|insegna|lehrt|teaches|says|goes|dice|dit|"
                + "diz|sagt|afirma|affirme|afferma|assure|asegura|assicura|assegura|advierte|avverte|avisa|prévient|warns|"
                + "recuerda|rappelle|ricorda|lembra|sostiene|soutient|sustenta|behauptet|prétend|pretende)\\b",
            // "Rezava o cartaz à entrada do mercado que …" (set 29)
            "^\\P{L}*(?i:rezava|rezaba|reza|recitava|recitaba|recita)\\s+(?:\(article)|\(possessive))\\s[^.!?]{0,40}?\\s"
                + "\(complement)\\b",
            // Tradition as the line's opener: "Manda a tradição dos apicultores contar às abelhas …" (set 29)
            "^\\P{L}*(?i:\(traditionHasIt))\\b",
            // Written somewhere, then what: "Nel quaderno di ricette della nonna sta scritto che …" (set 29)
            "\\b(?i:sta scritto|stava scritto|c['’]è scritto|è scritto|está escrito|estaba escrito|estava escrito|il est écrit|"
                + "est écrit|steht geschrieben|it is written|it['’]s written|vem escrito)\\s*,?\\s*(?:\(complement)\\b|:)",
            // Someone's view after a dash: "… – so zumindest die Ansicht meines Schwiegervaters." (set 29)
            "[—–]\\s*(?:(?i:so|ainsi|così|assim|así)\\s+)?(?:(?i:zumindest|jedenfalls|at least|du moins|al menos|almeno|"
                + "pelo menos)\\s+)?(?i:die ansicht|die meinung|the view|the opinion|l['’]avis|l['’]opinion|la opinión|"
                + "la opinion|el parecer|l['’]opinione|il parere|a opinião|o parecer)\\b",
            // "Nach Ansicht unseres Hausmeisters lässt sich …" (set 29)
            "^\\P{L}*(?i:nach ansicht|nach meinung|nach auffassung|nach überzeugung)\\s+(?i:unseres|unserer|meines|meiner|"
                + "des|der|von|vieler|aller)\\b",
            // Word going round: "Word in the bakery queue is that …" (set 31)
            "^\\P{L}*(?i:word)\\s+(?i:in|at|on|around|round|among)\\b[^,.!?]{0,40}?\\s(?i:is|was)\\s+(?i:that)\\b",
            // Someone categorical about it: "Les anciennes du cercle de tricot sont catégoriques, un pull …", "La recette de
            // tante Lucienne est formelle, …" (set 31)
            subjectThen(60) + "(?i:sont catégoriques|est catégorique|était catégorique|étaient catégoriques|est formelle|"
                + "est formel|sont formels|sont formelles|es tajante|era tajante|son tajantes|è categorico|è categorica|"
                + "sono categorici|sono categoriche|é categórico|é categórica|são categóricos|is adamant|are adamant|"
                + "ist kategorisch|sind kategorisch|"
                // (set 33: "Les habitués du marché aux puces sont unanimes, il faut …")
                + "sont unanimes|étaient unanimes|son unánimes|eran unánimes|sono unanimi|erano unanimi|são unânimes|"
                + "eram unânimes|are unanimous|were unanimous)\\s*[,:]",
            // "Printers have a saying that …", "There's an old proverb that …" (set 22)
            "\\b(?i:have|has|had|haben|hat|hatte|tienen|tiene|tenía|ont|a|avait|hanno|ha|aveva|têm|tem|tinha|there['’]s|"
                + "there is|es gibt|hay|il y a|c['’]è|há)\\s+"
                + "(?i:a|an|un|una|une|ein|einen|um|uma)\\s+(?:\\p{L}+\\s+)?(?i:\(DeterministicGate.sayingNouns))"
                // … with where it is said ("There's an old saying in Yorkshire that …", "Há um ditado alentejano que …"; set 29)
                + "(?:\\s+[^\\s,.!?]+){0,3}?\\s+\(complement)\\b",
            // "…, m'a appris ma grand-mère.", "…, mi ha insegnato il nonno."
            ",\\s*\(taughtUs)\\s+[^,]{1,50}\(end)",
            // A fortune cookie's or a horoscope's forecast: "The fortune cookie promised me a long journey, …"
            "\\b(?i:fortune cookie|glückskeks|horoskop|horoscope|galleta de la fortuna|horóscopo|biscoito da sorte|"
                + "biscotto della fortuna|oroscopo|biscuit chinois)\\b[^.!?,]{0,40}?\\b(?i:promised|promises|predicted|"
                + "predicts|warned|versprach|verspricht|prophezeite|prophezeit|prometió|promete|predijo|advertía|garantizó|"
                + "garantiu|prometeu|previu|promettait|a promis|promet|prédisait|prometteva|ha promesso|prediceva|promette|"
                // what it tells or announces ("My horoscope tells me today is …", "Mon horoscope m'annonce …",
                // "L'oroscopo di stamattina assicura ai Gemelli …"; sets 22 and 24)
                + "tells|told|says|announces|annonce|m['’]annonce|assure|m['’]assure|assures|assicura|asegura|assegura|"
                + "sagt|verkündet|dice|dit|diz|anuncia|annuncia|garantit|garantisce|garantiza|garante|"
                // (set 35: "The horoscope in Tuesday's paper said Virgos should …", "Il mio oroscopo … sconsigliava …")
                + "said|recommends|advises|recomienda|me recomienda|desaconseja|recommande|déconseille|consiglia|sconsiglia|"
                + "sconsigliava|aconselha|desaconselha|"
                // (set 31: "Das Horoskop meint, Steinböcke sollten …")
                + "meint|meinte|rät|riet)\\b",
            // What a packet, a label or a guidebook promises, its subject among the first words: "The
            // seed packet guarantees a riot of colour …", "Die Waschmittelpackung verspricht …", "La
            // scatola della moka promette un caffè perfetto …" (German nouns end compounds)
            "^\\P{L}*(?:\\p{L}+['’\\s-]+){0,4}?(?:\(printedCompound)|\(printedThing))\\b[^.!?;:]{0,30}?\\s(?i:promises|promised|guarantees|"
                + "guaranteed|assures|assured|vows|verspricht|versprach|garantiert|garantierte|promete|prometía|prometia|"
                + "garantiza|garantizaba|asegura|aseguraba|promet|promettait|garantit|assure|promette|prometteva|garantisce|"
                + "assicura|garante|garantia|assegura|swears|swore|insists|insisted|besteht darauf|bestand darauf|insiste|"
                + "insistía|insistait|insisteva|"
                // advice and its plural, impersonal givers ("Le manuel du lave-linge conseille de …", "Sulla bustina
                // dei semi promettono …", "Sur le sachet de graines, on promet …"; set 19)
                + "recommends|advises|empfiehlt|rät|recomienda|aconseja|conseille|recommande|précise|consiglia|raccomanda|"
                + "recomenda|aconselha|versprechen|prometen|promettent|promettono|prometem|"
                // (set 37: "The pigeon racing handbook states that …", "O letreiro à porta da tasca avisa que …"; a
                // thing that warns is not enough: "O cheiro a castanhas … avisa que o outono chegou")
                + "states|stated|stipulates|avisa|avisaba|avisava|avverte|avvertiva|avertit|proclame|proclama|proclaims|"
                // what a sign informs of and a calendar suggests ("The sign by the pool informs us that …", "Il
                // calendario … suggerisce, per marzo, di …"; set 29)
                + "informs|informed|informa|informe|informiert|suggests|suggested|suggerisce|sugiere|suggère|sugere|"
                // what it reads and teaches (set 31: "The volunteers' noticeboard … reads, "…"", "The cookbook teaches you to …")
                // (not a comparison: "The recipe card reads like a letter from Gran")
                + "reads(?!\\s+like)|teaches|lehrt|enseña|enseigne|insegna|ensina|"
                // what it boasts of and orders (set 33: "El paquete de sal gruesa presume de …", "O manual do guarda-freio
                // manda tocar …")
                + "boasts|presume de|presumía de|se vanta|se vante|prahlt|gaba-se|manda|mandava|ordena|ordonne|ordina|"
                + "prescribes|prescrit|prescrive|prescreve|schreibt vor|"
                // what it announces (set 35: "A tabuleta à porta do mercado anuncia fruta com memória, …")
                + "anuncia|anunciava|annonce|annonçait|annuncia|annunciava|announces|announced|verkündet|"
                // what it states or reckons (set 35: "A etiqueta do manjerico afirmava …", "Our weather app reckons …")
                + "afirma|afirmava|affirme|affirmait|afferma|affermava|states|stated|reckons|claims|claimed)\\b",
            // … and after the line: "…, the label on my wool jumper sternly advises.", "…, the café's chalkboard
            // announces to everyone passing by." (set 29)
            ",\\s*(?:\(article)|\(possessive))\\s[^,]{0,30}?\\b\(printedThing)\\b[^,]{0,30}?\\s(?:\\p{L}+ly\\s+)?"
                + "(?i:promises|advises|announces|warns|insists|says|reads|claims|tells us|reminds us|informs us|suggests|swears|"
                + "promet|conseille|annonce|prévient|dit|affirme|promete|aconseja|anuncia|advierte|dice|asegura|promette|"
                + "consiglia|annuncia|avverte|assicura|aconselha|avisa|diz|garante|verspricht|rät|empfiehlt|warnt|sagt|"
                + "behauptet)\\b[^,]{0,30}\(end)",
            // What a song keeps telling us, with a quotation or "that" after: "The song on the radio kept
            // repeating, "…"", "La canción de la verbena no deja de recordarnos que …" (not "The song on
            // the radio reminds me of my father's van.")
            "^\\P{L}*(?:\\p{L}+\\s+){0,3}?(?i:song|songs|lied|schlager|refrain|canción|cancion|estribillo|chanson|canzone|"
                + "canzonetta|ritornello|canção|cancao|refrão|refrao|música do rádio|música da rádio|letra|lyrics|paroles|songtext|"
                + "fado|copla|bolero|tango|rumba)\\b[^.!?]{0,40}?\\b"
                + "(?i:repeat|repeats|repeating|says|said|dizer|dizer-nos|dizer-me|decir|decirnos|dire|dirci|dirmi|"
                + "tells|told|telling|reminds|reminding|promises|promised|wiederholt|sagt|sagte|erinnert|verspricht|repite|dice|"
                + "decía|recuerda|recordarnos|recordando|promete|répète|répétait|dit|disait|rappelle|rappelait|promet|ripete|"
                + "ripeteva|ripeterci|diceva|ricorda|ricordarci|promette|repete|repetia|repetir-nos|diz|dizia|lembra|lembrar-nos|"
                + "lembrando|repetirnos|repetirme|recordarme|ripetermi|ricordarmi|lembrar-me|repetir-me|wiederholen|"
                // (set 33: "The song on the bus radio keeps promising that …")
                + "promising|prometiendo|promettant|promettendo|prometendo|versprechen)\\b"
                + "[^.!?]{0,20}?(?:\\s(?i:that|dass|que|qu['’]|che)\\b|[,:]?\\s*[\"“„«‚‘]|\\s*:\\s)",
            // An opinion given as someone's in German, the verb straight after its holder: "Für meine
            // Oma war ein Sonntag ohne Streuselkuchen kein richtiger Sonntag."
            "^\\P{L}*(?i:für)\\s+(?i:meine|meinen|mein|unsere|unseren|unser)\\s+(?!\(occasion))\\p{L}+(?:\\s+\\p{Lu}\\p{L}+)?"
                + "\\s+(?i:war|ist|sind|waren|bedeutet|bedeutete)\\b",
            // A teaching or lore named as the source: "In Buddhist teaching, the mind is …", "Nella
            // saggezza popolare, …"
            "^\\P{L}*(?i:in|im|in der|en|en la|dans|dans la|nella|nel|na|no)\\s+[^,]{0,30}?\\b(?i:teaching|teachings|lore|"
                + "folklore|scripture|scriptures|lehre|überlieferung|volksglauben|enseñanza|enseñanzas|sabiduría popular|"
                + "enseignement|enseignements|sagesse populaire|insegnamento|insegnamenti|saggezza popolare|ensinamento|"
                + "ensinamentos|sabedoria popular)\\b[^,]{0,20},",
            // English drops "that" after a claim: "Astronomers at the observatory reckon the clearest nights …",
            // "My aunt swears the jam …", "Taxi drivers will tell you the three a.m. fares …", "The manual
            // insists the clock …"
            subjectThen(60) + "(?i:reckon|reckons|reckoned|swears|swore|swear|insists|insisted|will tell you|['’]ll tell you|"
                // (set 29: "Bingo regulars insist the lucky seat …")
                // (not being sure, which tells a scene: "She was sure the bus had gone, so …", nor claiming or maintaining
                // a thing: "My brother claims the window seat …")
                + "insist|argues|argued)"
                + "\\s+(?i:the|a|an|it|it['’]s|there|you|every|no|nothing|all|any|these|this|those|they|he|she)\\b",
            // … and after saying, right after its subject ("My dad always said you can judge …", "Locals in Whitby
            // say the fog …", "The night porter told me once the best …"; set 24). Not the second verb of a scene
            // ("… wiped his hands and said the car …"), nor an infinitive or a request ("… just say the word."), nor
            // silence ("… said nothing and …")
            subjectThen(60) + "(?<!\\b(?i:and|to|just|please|then|or|a|an|the|his|her|my|our|their|old|that|this|same)\\s)"
                + "(?i:said|says|say|told me once|once told me|joke|jokes|joked)"
                + "\\s+(?i:the|it|it['’]s|there|there['’]s|you|every|all|any|these|this|those|they|he|she)\\b",
            // Someone's theory, rule or motto: "The barber's theory is that …", "La teoría del panadero es que …" (set 25)
            "\\p{L}['’]s?\\s+(?:\\p{L}+\\s+)?(?i:theory|belief|motto|rule|advice|philosophy|creed|conviction|maxim|mantra|"
                // (set 29: "Grandad's view was simple: …", "Her driving instructor's favourite line was that …")
                + "view|opinion|line|message|lesson|verdict|credo|principle)\\s+"
                + "(?i:is|was|has always been|had always been)(?:\\s+(?i:simple|clear|simply this|this))?\\s*(?:(?i:that)\\b|:)",
            // Someone who has a theory or a motto, told after a colon: "Mi jefa tiene una teoría: …", "I tassisti romani
            // hanno una loro filosofia: …", "Papá tenía una frase para las mudanzas: …" (set 29), a rule or a conviction
            // ("Los feriantes tienen su propia regla: …", "I vecchi del coro hanno una loro convinzione: …"; set 37); not
            // the speaker's own ("I have a theory: toast …")
            "\\b\(notSpeaker)(?i:has|have|had|tiene|tienen|tenía|tenia|tem|têm|tinha|ha|hanno|aveva|a|ont|avait|hat|haben|hatte)\\s+"
                + "(?:(?i:a|an|una|un|uma|une|eine|ein|their own|his own|her own|loro|seine|ihre|"
                // (one's own only with "own": "Aquí tiene su frase: …" is talk)
                + "(?:su|sua|leur|their)\\s+(?:propia|própria|propria|propre|own))\\s+)+(?:\\p{L}+\\s+)?"
                + "(?i:theory|motto|saying|philosophy|maxim|mantra|credo|teoría|teoria|théorie|theorie|frase|lema|devise|"
                + "massima|filosofia|filosofía|philosophie|dicho|ditado|detto|dicton|spruch|lebensweisheit|regla|regra|regola|"
                + "règle|regel|rule|convicción|convinzione|conviction|überzeugung|creencia|crença|credenza|croyance)\\b[^.!?:]{0,40}:",
            "^\\P{L}*(?i:la teoría|la teoria|la théorie|a teoria|el lema|la devise|il motto|o lema|la regla|la règle|la regola|"
                + "a regra|la filosofía|la philosophie|la filosofia|a filosofia)\\s+(?i:de|del|della|dello|di|du|des|da|do)\\b"
                + "[^,.!?:]{1,40}?\\s(?i:es|era|est|était|è|é)\\s*(?:(?i:que|che)\\b|(?i:qu)['’]|:)",
            // "Ask any bell ringer and they'll tell you …", "Les boulangers de nuit vous le diront : …": what
            // people of a trade will tell anyone
            "\\b(?i:they['’]ll tell you|they will tell you|te dirán|le dirán|os dirán|vous diront|vous le diront|te diront|"
                + "ti diranno|vi diranno|te lo diranno|vão dizer-te|vão-te dizer|werden dir sagen|werden ihnen sagen)\\b",
            // … and one of them, after the line: "…, ti dirà qualunque suonatore della banda." (set 25)
            ",\\s*(?i:ti dirà|te lo dirà|te dirá|te lo dirá|vous dira|vous le dira|te dira|te le dira|vai dizer-te|"
                + "wird dir sagen|wird es dir sagen)\\s+[^,]{1,50}\(end)",
            // Hearsay with "según" ("Según cuentan en la banda, …"; set 25), which alone may mean "depending on"
            "(?:^\\P{L}*|,\\s*)(?i:según|segun|segundo)\\s+(?i:cuentan|dicen|contam|dizem|se dice|se cuenta|se diz|consta)\\b",
            // A habit of saying ("Ma prof de yoga aime nous rappeler que …", "O nosso maestro nunca se cansou de
            // nos lembrar que …", "Il gestore del rifugio non si stanca di ricordarci che …"; set 22)
            subjectThen(60) + "(?i:aime|aimait|adore|adorait|gosta de|gostava de|ama|amava|suele|solía|solia|costuma|"
                + "aiment|aimaient|gostam de|gostavam de|amano|amavano|aman|suelen|solían|costumam|costumavam|like to|love to|"
                + "costumava|likes to|liked to|loves to|never tires of|non si stanca di|no se cansa de|não se cansa de|"
                + "nunca se cansou de|ne se lasse pas de|anda sempre a|vive a|faz questão de|continua a|"
                // (set 29: "O guia turístico fez questão de sublinhar que …", "O contínuo … costumava avisar os miúdos de que …")
                + "fez questão de|fazia questão de|made a point of|tenait à|a tenu à|ci teneva a|teneva a)\\s+"
                + "(?:(?i:nos|me|lhe|lhes|nous|vous|ci|mi|us|me|de|di|a)\\s+){0,2}(?i:dizer|repetir|lembrar|recordar|"
                + "recordarnos|rappeler|répéter|dire|ricordare|ricordarci|ricordarmi|ripetere|ripeterci|decir|repetirnos|"
                + "say|saying|remind|reminding|tell|telling|brincar|bromear|plaisanter|scherzare|lembrar-nos|repetir-nos|"
                + "avisar|advertir|avertir|avvertire|warn|warning|sublinhar|subrayar|souligner|sottolineare|stress|stressing|"
                + "point out|pointing out|insistir|insister|insistere|explicar|expliquer|spiegare|explain|explaining)"
                + "\\b[^.!?]{0,30}?\\s\(notComparison)(?:\(complement)\\b|(?i:con que|com que))",
            // Hearsay the speaker heard ("Oí en la radio del hospital que …", "I heard from the man at the
            // car boot sale that …"; set 24)
            // (a place or a source may come between, an object may not: "I heard the song that …" is a scene)
            "\\b(?i:I heard|I['’]ve heard|I have heard|oí|he oído|escuché|j['’]ai entendu|ho sentito|ouvi|ich habe gehört|"
                // … or was told ("Tengo oído que …", "I'm told that …"; set 25)
                + "tengo oído|tengo oido|tengo entendido|tenho ouvido|I['’]m told|I am told|I was told|me han dicho|me dijeron|"
                + "mi hanno detto|on m['’]a dit|disseram-me|man hat mir gesagt|mir wurde gesagt|"
                + "ich hab gehört|hörte ich)(?:\\s+(?i:dire|dizer|decir|say|sagen))?(?:\\s*,?\\s+(?i:from|on|in|at|en|a|al|na|no|"
                + "em|à|au|sur|alla|dalla|da|de|del|von|im|am|auf|bei)\\b[^.!?,]{0,40}?)?\\s*,?\\s+(?:\(complement)\\b|(?i:qu)['’])",
            // Hearsay as the line's opener: "Al parecer, …", "Ao que parece, …", "Angeblich …", "Apparently …"
            "^\\P{L}*(?i:apparently|supposedly|reportedly|al parecer|por lo visto|ao que parece|pelos vistos|apparemment|"
                + "a quanto pare|a quanto si dice|angeblich|dem vernehmen nach|"
                // (set 33: "Consta que a velha barbearia …", "Pelo que se conta na vila, …", "Wie man mir erzählt hat, …",
                // "Word is the railway club's president …")
                + "consta que|consta-se que|pelo que se conta|pelo que se diz|pelo que contam|pelo que dizem|por lo que se cuenta|"
                + "por lo que cuentan|por lo que dicen|da quel che si racconta|da quel che si dice|d['’]après ce qu['’]on raconte|"
                + "d['’]après ce qu['’]on dit|from what I hear|from what I['’]ve heard|wie man mir erzählt hat|"
                + "wie man mir gesagt hat|wie man sich erzählt|wie mir erzählt wurde|word is|the word is|rumour is|rumor is)\\b",
            // A verb that tells someone, then "that": "The guidebook assures travellers that …", "La
            // nonna ricordava ai nipoti che …". Not "tells" (stories that …). A clitic for the one told
            // may take adverbs after it ("A aplicação lembra-me todas as manhãs que …"; set 19).
            subjectThen(60) + "(?i:assures|assured|reminds|reminded|warns|"
                + "warned|versichert|versicherte|erinnert|erinnerte|warnt|warnte|asegura|aseguraba|recuerda|"
                + "recordaba|advierte|advertía|assure|assurait|rappelle|rappelait|avertit|avertissait|assicura|assicurava|"
                + "ricorda|ricordava|avverte|avvertiva|assegura|assegurava|lembra|lembrava|avisa|avisava)"
                + "(?:-(?i:me|nos|lhe|lhes|te)\(told("")){0,4}|\(told("")){1,2})\\s*,?\\s+\(complement)\\b",
            // Teaching someone ("Al porto, i vecchi insegnano ai ragazzi che …"; set 18), the pupils in up to
            // five words ("Mrs Okafor teaches every child on the street that …"; set 19), not a comparison ("…
            // nos enseñan más de lo que …"). Not French "apprendre", which is learning too ("Au camping, on
            // apprend vite que …").
            subjectThen(60) + "(?i:teach|teaches|insegna|insegnano|insegnava|enseña|enseñan|enseñaba|ensina|"
                + "ensinam|ensinava|lehrt|lehren)"
                + "\(told("|more|than|mehr|als|más|mas|mais|lo|plus|più")){1,5}\\s*,?\\s+\(complement)\\b",
            // "Inspired by Seamus Heaney, …"
            "(?i:inspired by|inspiriert von|inspirado en|inspiré par|inspirato da|inspirado em)\\s+\(name)",
            // "Decía el panadero Eusebio que …", "Ya lo decía mi tía, …", "Lo diceva anche la maestra: …"
            "^\\P{L}*(?i:(?:ya\\s+lo|lo|già\\s+lo|gia\\s+lo|já|ja|schon|mi|me|ci|nos|m['’]|nous)\\s*)?\(saidBefore)\\s[^.!?]{0,50}?"
                + "(?:\\s\(complement)\\b|[,:;])",
            // What someone kept repeating, the verb first: "Ripeteva la mia prima capa di non mandare …" (set 27)
            "^\\P{L}*(?i:\(repeatedPast))\\s+"
                + "(?:\(possessive)|\(article))\\s[^.!?]{0,40}?\\s(?:(?i:di|de|que|che|dass)\\b|(?i:qu)['’])",
            // "Hermann Hesse meinte einmal, …", "Albert Einstein put it simply, …", "Unser Trainer Herr
            // Yilmaz sagte immer, …"
            "^\\P{L}*(?:\\p{Lu}[\\p{L}'’.-]*\\s+){1,5}(?i:(?:once|einmal|always|immer|sempre|siempre|toujours|reportedly|famously|supposedly|allegedly)\\s+)?\(said)(?:\\s+(?i:einmal|once|immer|always|simply|best|it\\s+best|es\\s+auf\\s+den\\s+punkt))?\\s*[,:;]",
            "(?i:said it best|put it best|brachte es auf den punkt|ainsi parlait|so sprach|así habló|asi hablo|così parlò|cosi parlo|assim falou|thus spoke)",
            // "…, said my grandfather every spring.", "…, decía mi abuela.", "», ripeteva il signor
            // Gennaro.", "…, conforme conta o seu Valdemar.", "…, me confiait mon voisin."
            ",\\s*(?i:(?:me|mi|m['’]|nos|ci|uns|us|nous|vous|te|ti|lui|leur)\\s*)?(?:\(said)|(?i:conforme|según|segun|como|selon|come)\\s+(?:\(said)|(?i:cuenta|conta|cuentan|contam|raconte|racconta)))\\s+(?!(?i:(?:que|che|that|dass)\\b|qu['’]))[^,]{1,50}\(end)",
            // … a longer one after a habit of repeating and its speaker's article: "…, repetía el monitor del taller de
            // manualidades cada martes por la tarde." (set 27)
            ",\\s*(?i:\(repeatedPast)|repeated|decía|decia|disait|diceva|dizia)\\s+(?:\(article)|\(possessive))\\s"
                + "[^,]{1,70}\(end)",
            // "…, en opinión de mi abuelo.", "…, according to my coach."
            ",\\s*\(crediting)\\s+(?:\(possessive)|\(name))[^,]{0,40}\(end)",
            // … and before a source with an article ("…, segundo o guia turístico de Lisboa."; set 24), but not
            // "según", which is also "depending on" ("…, según el día.")
            ",\\s*(?i:according to|laut|segundo|d['’]après|de acuerdo con|de acordo com)\\s+\(article)\\s[^,]{0,40}\(end)",
            // An opinion given as someone's: "In my father's view, …", "In Gran's book, …"; not the
            // speaker's own after the comma ("In my father's book, I found …")
            "^\\P{L}*(?i:in)\\s+(?:(?i:my|our)\\s+)?[^,]{1,25}?['’]s?\\s+(?i:view|opinion|eyes|book|mind|world|philosophy),\\s+"
                + "(?!(?i:I|we)\\b)",
            // "…, spiegava il fornaio Beppe mostrando la panzanella.", "…, grumbled the ferryman."
            ",\\s*\(spoke)\\s+(?!(?i:(?:que|che|that|dass)\\b|qu['’]))[^,]{1,60}\(end)",
            // Reported speech in German, whose verb is in the subjunctive: "Der Fährmann meint, die Elbe
            // halte sich an keinen Fahrplan, …", "Auf meinem Teebeutel stand heute, wer … warte, habe …"
            // ("…steht allen Ernstes, Liebe sei …": two words may come before the comma)
            // (set 19: "Unter Klavierstimmern gilt, ein Flügel verrate …", "Tante Hilde schwor bis zuletzt, …",
            // "In der Kantine geht der Witz um, der Pudding sei …", "Auf Helgoland hält sich der Glaube, wer …, habe Glück")
            "\\b(?i:meint|meinte|sagt|sagte|behauptet|behauptete|schwört|schwor|schwören|glaubt|glaubte|erzählt|erzählte|"
                + "witzelt|witzelte|scherzt|scherzte|spottet|spottete|mahnt|mahnte|warnt|warnte|wiederholt|wiederholte|erklärt|"
                + "erklärte|betont|betonte|predigt|predigte|lehrt|lehrte|scherzen|witzeln|raunen|raunt|raunte|munkeln|munkelt|"
                + "erzählen|erzählten|beteuert|beteuerte|versichert|versicherte|gilt|galt|stand|steht|heißt es|hieß es|sagen|"
                + "meinen|der witz|der spruch|das gerücht|die legende|die sage|der glaube|der aberglaube|überzeugt|"
                // (set 31: "Die Tafel … verkündet, heute sei …", "Unser Pfarrer wird nicht müde zu betonen, ein … halte …";
                // not finding, "Im Sozialkaufhaus findet man Dinge, …")
                + "verkündet|verkündete|betonen|erklären|behaupten|versichern)"
                // (set 33: "Der Hüttenwirt wiederholt bei jeder Ankunft der Bahn, oben gehe …")
                + "(?:\\s+\\p{L}+){0,6}\\s*,\\s*[^.!?]{0,80}\\b(?:sei|seien|habe|werde|müsse|"
                + "könne|solle|dürfe|gebe|halte|wisse|komme|brauche|gehöre|bringe|wachse|mache|liege|stehe|finde|bleibe|gehe|"
                + "tue|helfe|lohne|reiche|schmecke|fehle|gelte|zähle|koste|dauere|laufe|sehe|wolle|möge|falle|fahre|trage|"
                + "verrate|merke|erkenne|verdiene|ziehe|rieche|schlafe|spare|kenne|schütze|verliere|gewinne|verkaufe|kaufe|"
                + "hätten|wären|kündige|beginne|wüssten|erkennten|erkenne|"
                // (set 29: "Man erzählt sich im Dorf, ein Klavier klinge …", "Auf der Packung steht, dieser Tee schenke …")
                + "klinge|spüre|schenke|heiße|wirke|lerne|passe|rede|höre|spiele|arbeite|lebe|liebe|warte|vergesse|schaffe|"
                // (not the conditional of a writer's offer: "… – das wäre mein Vorschlag für heute.")
                + "begänne|begännen|sollten|müsste|müssten)\\b",
            // "…, my uncle Pat used to say.", "…, pflegte mein Großvater zu sagen.", "…, Rosa Calvo dixit."
            // ("…, ohne etwas zu sagen." is silence, not a credit)
            ",\\s*(?!\\s*(?i:ohne|without|sin|sans|senza|sem)\\b)[^,]{1,50}\\b(?i:used to say|would say|always says|always said|liked to say|zu sagen|dixit)\(end)",
            // "…, my grandmother said.", "…, meinte Tante Hilde immer."
            ",\\s*[^,]{1,40}\\b\(said)(?:\\s+(?i:always|often|once|immer|oft|einmal|siempre|toujours|sempre))?\(end)",
            // The speaker after "as" inside the line: "La nuit porte conseil, comme dit ma mère chaque fois que …"
            ",\\s*\(like)\\s+(?:(?i:le|lo|l['’])\\s*)?\(said)\\s+(?:\(possessive)|\(name))",
            // "…, mi ricordava mia madre tirandomi giù le coperte."
            ",\\s*(?i:mi|ci|me|nos|m['’]|nous|uns|mir)\\s*(?i:ricordava|ricorda|recordaba|recuerda|rappelait|rappelle|"
                + "lembrava|lembra|erinnerte|erinnert)\\s+(?:\(possessive)|\(article)|\(name))\\s",
            // A credit's opener at the end: "…, a detta del sommelier dell'enoteca.", "…, à en croire le caviste."
            ",\\s*(?:(?i:almeno|al menos|pelo menos|au moins|at least|zumindest|jedenfalls|perlomeno|per lo meno)\\s+)?\(credit)\\s+[^,]{1,50}\(end)",
            // … or someone's view, hedged: "…, pelo menos para o meu tio Alberto." (set 27)
            ",\\s*(?i:almeno|al menos|pelo menos|au moins|at least|zumindest|jedenfalls|perlomeno|per lo meno)\\s+(?i:para|pour|per|for|für)\\s+"
                + "(?:\(possessive)|\(name))[^,]{0,30}\(end)",
            // … or set off by commas inside it: "Il gelato al limone, a sentire la zia, è l'unico …" (set 24)
            ",\\s*\(credit)\\s*[^,]{1,40},",
            // "…, à ce que prétend le caviste de la rue Saint-Jean.", "…, por lo que dice mi abuela."
            ",\\s*(?i:à ce que|à ce qu['’]|a quanto|por lo que|pelo que|from what)\\s+(?:\\p{L}+\\s+)?(?:\(said)|\(claimed)|"
                + "(?i:dice|dicen|dit|disent|diz|dizem|dicono|says|say|raconte|racconta|cuenta|conta))\\b",
            // Hearsay set off by commas or at the end, alone or with where it is said: "Los fareros, cuentan en
            // la costa, nunca duermen …", "…, dit-on." (not the verb with an object: "…, they say nothing and …")
            ",\\s*(?i:cuentan|dicen|dizem|contam|raccontano|dicono|on dit|dit-on|racontent|they say|people say|sagt man|"
                + "heißt es|paraît-il|parait-il|dizem por aí)(?:\\s+(?i:in|en|a|à|au|aux|na|no|nos|nas|nel|nella|nei|im|am|"
                + "auf|bei|por|around|here|aquí|aqui|qui|ici|lá|là|hier|da|dans|sur)\\b[^,]{0,25})?(?:,|\(end))",
            // A lesson drilled in before a colon: "Il mio allenatore ce l'ha inculcato fin da piccoli: …"
            "\\b(?i:inculcato|inculcava|inculcó|inculcou|eingebläut|eingetrichtert|seriné|rabâché|drilled into|drummed into|"
                + "machacaba|machacó|martelava|martellava|"
                // (set 29: "So jedenfalls hat es uns die Grundschullehrerin beigebracht: …", "Ce l'ha insegnato il
                // bidello, …: …", "Lo aprendí en el curso de primeros auxilios: …")
                + "beigebracht|gedrillt|ce l['’]ha insegnato|ce l['’]hanno insegnato|me l['’]ha insegnato|me lo enseñó|"
                + "nos lo enseñó|me lo enseñaron|nos lo enseñaron|nous l['’]a appris|me l['’]a appris|ensinou-nos|ensinou-me|"
                + "martelou|martelou-nos|martellato|lo aprendí|lo aprendimos|l['’]ho imparato|je l['’]ai appris|aprendi-o|"
                + "I learned it|I learnt it|taught us this|taught me this)\\b[^.!?:]{0,40}:",
            // … in English with what is drilled between ("Every instructor drills the same lesson into beginners: …"),
            // and put into one's head ("El monitor nos metía en la cabeza que …"; set 25)
            "\\b(?i:drills|drilled|drummed|drums|hammers|hammered|drilling|drumming|hammering)\\s+(?:(?i:it|this|that|the same|one|a|an|his|her|their|our)\\s+)?"
                + "(?:(?i:lesson|lessons|rule|rules|idea|message|point|habit|mantra|motto)\\s+)?(?i:into)\\s+"
                // the ones taught, not a wall ("… drilled into the oak beam that holds …")
                + "(?:(?i:us|me|him|her|them|you|everyone|generations|beginners|pupils|students|children|kids|recruits|apprentices|"
                + "learners)\\b|(?i:every|each|all|the|his|her|their|our|my|new)\\s+(?:new\\s+)?(?i:class|team|children|kids|pupils|"
                + "students|beginners|recruits|apprentices|learners|child|kid|pupil|student|beginner|recruit|apprentice|learner|"
                + "trainee|trainees)\\b)[^.!?:]{0,30}(?::|\\s(?i:that)\\b)",
            // (set 29: "… me lo metió en la cabeza la monja …", "… ce l'ha martellato in testa …", "… martelou-nos na cabeça que …")
            "\\b(?i:l['’]|lo|la)\\s*(?:\\p{L}+\\s+)?\(intoHead)\\s+\(head)",
            "\\b\(intoHead)(?:-(?i:nos|me|lhe|lhes))?\\s+\(head)\\s*(?:(?i:que|che)\\b|(?i:qu)['’]|:)",
            // Agreeing as a group before a colon: "Die Bastelgruppe ist sich einig: …" (set 27)
            "\\b(?i:ist sich einig|sind sich einig|sind sich alle einig|waren sich einig|are agreed|all agree|están de acuerdo|"
                + "coinciden|sont d['’]accord|sono d['’]accordo|concordam|estão de acordo)\\s*:",
            // "Ein Hochzeitsbuffet, so meine Cousine, ist erst gelungen, …": the speaker without a verb
            ",\\s*(?i:so)\\s+(?:\(possessive)|\(article))\\s+[^,]{1,30},",
            // "Unter Schaustellern gilt es als Pech, …": lore among a group
            "^\\P{L}*(?i:unter)\\s+(?:(?i:den|alten)\\s+)?\\p{L}+n\\s+(?i:gilt|galt|heißt es|hieß es)\\b",
            // "Nach Omas Kochbuch verdient jeder …", "Nach Opas Erfahrung …"
            "^\\P{L}*(?i:nach)\\s+\\p{Lu}\\p{L}+s\\s+(?i:kochbuch|rezept|rezeptbuch|meinung|ansicht|worten|überzeugung|"
                + "erfahrung|regel)\\b",
            // An old rule or wisdom as the source: "Nach alter Milchkutscherregel stellt man …" (set 25)
            "^\\P{L}*(?i:nach)\\s+(?i:alter|altem|guter alter|einer alten)\\s+\\p{L}*(?i:regel|weisheit|lehre|überlieferung)\\b",
            // An opinion given as someone's, set off inside the line before its verb: "Una buena mermelada, para mi
            // abuela, era la que …" (set 25)
            ",\\s*(?i:for|für|para|pour|per)\\s+\(possessive)\\s+[^,]{1,30},\\s*(?i:is|was|are|were|ist|war|sind|waren|es|era|"
                + "fue|son|eran|est|était|sont|étaient|è|sono|erano|é|foi|são|eram)\\b",
            // "Nel quaderno di ricette di nonna Elvira, il ragù vuole …": someone's recipe book as the source
            "^\\P{L}*(?i:in|im|nel|nella|en|dans|no|na)\\s+[^,]{0,30}?\\b(?i:recipe book|cookbook|cookery book|kochbuch|rezeptbuch|"
                + "livre de cuisine|libro de cocina|libro di cucina|livro de cozinha|"
                + "recetario|libro de recetas|cuaderno de recetas|livre de recettes|cahier de recettes|ricettario|"
                + "quaderno di ricette|livro de receitas|caderno de receitas)\\b[^,]{0,40},\\s+"
                + "(?!(?i:I|we|ich|wir|yo|je|j['’]|nous|io|noi|eu|nós)\\b)",
            // Someone's world or philosophy as the frame of an opinion: "In Opas Welt war jeder Schrebergarten …",
            // "Nella filosofia di mia nonna, …" (sets 22 and 24)
            "^\\P{L}*(?i:in|im)\\s+(?:(?i:meiner|meines|unserer|unseres)\\s+)?(?:\\p{Lu}\\p{L}+\\s+)?\\p{Lu}\\p{L}+s\\s+(?i:welt|philosophie|augen)\\b",
            "^\\P{L}*(?i:nella|nel|en la|en el|dans la|dans le|na|no|in)\\s+(?i:filosofia|filosofía|philosophie|philosophy|mondo|"
                + "mundo|monde|world)\\s+(?i:di|de|du|da|do|del|della|des|of)\\s+(?:\(possessive)|\(name)|(?i:la|il|el|o|a|the)\\s)",
            // An opinion seen through someone's eyes: "Agli occhi di mio zio contadino, …"
            "^\\P{L}*(?i:agli occhi d\\p{L}*|aux yeux d\\p{L}*|a los ojos de|a ojos de|aos olhos d\\p{L}*|in the eyes of|"
                // "Dans l'esprit de mon oncle, …" (set 29)
                + "dans l['’]esprit d\\p{L}*|nella testa d\\p{L}*|en la cabeza de|na cabeça d\\p{L}*|in the mind of|"
                + "in den augen)\\s+(?:\(possessive)|\(name))",
            // "Per zia Nella, un regalo senza biglietto …": an opinion given as a relative's, named
            "^\\P{L}*(?i:for|für|para|pour|per)\\s+(?i:aunt|uncle|gran|granny|grandma|grandpa|tante|onkel|oma|opa|tía|tío|"
                + "tia|tio|abuela|abuelo|oncle|mamie|papi|zia|zio|nonna|nonno|avó|avô|dona|don|seu|signora|herr|frau|madame)"
                // (and where they work: "Para a Dona Celeste da lavandaria, …"; set 29)
                + "\\s+\\p{Lu}\\p{L}+(?:\\s+(?i:da|do|de|del|della|di|du|von|vom|from|of|at)\\s+[^,]{1,30})?,\\s+"
                + "(?!(?i:I|we|ich|wir|yo|je|j['’]|nous|io|noi|eu|nós|nos)\\b)",
            // … or with an article: "Per la nonna, una tavola apparecchiata …" (set 22)
            "^\\P{L}*(?i:for|für|para|pour|per)\\s+(?i:the|die|den|la|el|a|le|il|lo|o)\\s+(?i:gran|granny|grandma|grandpa|oma|opa|"
                + "abuela|abuelo|avó|avô|grand-mère|grand-père|mamie|papi|nonna|nonno|zia|zio|tía|tío|tia|tio)\\s*,\\s+"
                + "(?!(?i:I|we|ich|wir|yo|je|j['’]|nous|io|noi|eu|nós|nos)\\b)",
            // Teaching in French, with the ones taught: "Dans la fanfare, on apprend aux débutants qu'…" (set 22; "on
            // apprend vite que …" is learning)
            "\\b(?i:apprend|apprennent|apprenait|apprenaient|a appris|ont appris)\\s+(?i:aux|à\\s+(?:ses|leurs|nos|mes|la|le|l['’]))"
                + "\\s*[^.!?]{1,40}?\\s(?:(?i:que)\\b|(?i:qu)['’])",
            // Teaching in German: "Herr Demir bringt jedem Kind in der Straße bei, dass …"
            "\\b(?i:bringt|brachte|bringen|brachten)\\b[^.!?]{0,50}\\bbei\\s*,\\s*(?i:dass|wie)\\b",
            // Lore handed down: "Cá em casa passou de geração em geração que …"
            "\\b(?i:de geração em geração|de generación en generación|von generation zu generation|"
                + "de génération en génération|di generazione in generazione|from generation to generation)\\b[^.!?]{0,30}?"
                + "\\s\(complement)\\b",
            // signatures: "Signé, Lucien Barbier.", "Firmato Marco", "… cit. Enzo Bellini.", "Parola di zio Tonino."
            "(?:^|[.!?]\\s+)(?i:signed|signé|firmato|firmado|assinado|gezeichnet)\\s*,?\\s*\\p{Lu}",
            "(?:^|\\s)cit\\.\\s*\\p{Lu}",
            "(?:^|[.!?]\\s+)(?i:parola di|palabra de|palavra de|wort von)\\s+[^,.!?]{1,30}[.!?]?\\s*$",
            // A last clause that names a saying: "…, reza el refrán.", "…, heißt es im Volksmund.",
            // "…, as the old proverb goes.", "…, nous consolait la sagesse populaire."
            ",\\s*[^,]{0,40}\\b\(article)\\s+(?:\\p{L}+\\s+)?(?i:\(DeterministicGate.sayingNouns))\\b[^,]{0,25}\(end)",
            // "According to an old Lorraine saying, …", "Selon un vieux dicton lorrain, …"
            "^\\P{L}*\(according)\\s+[^,:;]{0,30}\\b\(DeterministicGate.sourceNouns)\\b",
            // "Comme le veut la sagesse des maraîchers nantais, …", "As the old proverb has it, …"
            "^\\P{L}*\(like)\\s[^,:;]{0,40}\\b(?i:\(DeterministicGate.sayingNouns))\\b[^,:;]{0,40}[,:;]",
            // A quoted saying and its speaker: "„Ohne Fleiß kein Preis“, sagte meine Oma, …"
            "^\\P{L}*[\"“„«‚‘][^\"“”„«»]{3,}[\"”“»‘’]\\s*[,;]?\\s*\(said)\\s",
            // … or any words after the quotation's comma: "«Chi dorme non piglia pesci», brontolava il
            // nonno, …", "«La vita è un girotondo», cantava la radio del bar …", "…," Granny would mutter.
            "^\\P{L}*[\"“„«‚‘][^\"“”„«»]{3,}(?:[\"”“»‘’]\\s*,|,\\s*[\"”“»‘’])\\s*\\p{L}",
            // … or after its exclamation, the speaker's verb in lower case: ""Early cabbages, early smiles!" shouts Mr
            // Patel …" (set 31; a question so is a scene's dialogue: "« Encore un peu de sel ? » demandait mon oncle, …")
            "^\\P{L}*[\"“„«‚‘][^\"“”„«»]{3,}!\\s*[\"”“»‘’]\\s*\\p{Ll}",
            // The speaker inside the line: "…, says my sister, who …", "…, insiste mi cuñado, que …"
            ",\\s*(?:\(said)|(?i:insists|insiste|insisteva|insistait|schwört|swears|jure|giura))\\s+\(possessive)\\s+\\p{L}+"
                + "(?:\\s+\\p{L}+)?\\s*(?:,\\s*(?i:who|whose|which|que|qui|dont|che|cui|der|die|das|welche)\\b|\(end))",
            // "…, as the old wartime poster keeps telling us.", "…, wie es so schön heißt."
            // (not one who does so, "…, como quem reza."; set 31)
            ",\\s*\(like)\\s+(?!(?i:quem|quien|qui|chi|one who|someone who|wer)\\b)[^,]{1,50}\\b(?:(?i:goes|heißt|heisst|dice|dit|"
                + "diz|recita|reza)|(?i:telling|tells|told|reminds|reminding)"
                + "\\s+(?i:us|me|everyone))\\b[^,]{0,15}\(end)",
            // "Tante Hilde zufolge …", "Laut dem Kühlschrankmagneten in unserer Küche ist …"
            "^\\P{L}*[^,.!?]{1,40}\\s(?i:zufolge)\\b",
            "^\\P{L}*Laut\\s+(?:dem|der|den|des|meinem|meiner|meines|unserem|unserer)\\s",
            // "Según la bolsita de té de esta mañana, …", "Segundo o motorista do ônibus, …"
            // (not "depending on": "Según la hora, el mercado huele a pan …")
            "^\\P{L}*\(crediting)\\s+(?i:el|la|los|las|o|a|os|as|l['’]|le|les|the|del|do|da|dos|das|du|des|un|una|um|uma|une|an)\\b"
                + "(?!\\s+(?i:hora|horas|día|dia|días|dias|tiempo|tempo|estación|estacion|estação|estacao|temporada|época|epoca|"
                + "momento|ocasión|ocasion|mes|mês|año|ano|semana|humor|caso|luz|clima|marea|maré|viento|vento|tamaño|tamanho|"
                + "altura|lugar|zona|necesidad|necessidade|precio|preço|preco)\\b)[^,:;]{1,50},",
            // Sayings of a place or of people at large: "Im Allgäu heißt es, …", "Diz-se nos Açores que …"
            "(?i:heißt es|heisst es)\\s*,",
            // (a "que" of comparison is none: "Los remiendos … cuentan mejor que un álbum …")
            "\\b(?i:diz-se|dizem|se dice|dicen|on dit|si dice|dicono|they say|people say|man sagt|se cuenta|on raconte|"
                + "corre voce|si tramanda|se transmite|on tient|es heißt|conta a lenda|"
                + "si racconta|conta-se|erzählt man|man erzählt|reza la leyenda|reza a lenda|dice la leyenda|"
                // tradition that has it ("Reza a tradição no Alentejo que …"; set 25)
                + "\(traditionHasIt)|"
                + "si legge|se lee|lê-se|on peut lire|it is said|legend has it|rumour has it|rumor has it|word has it|"
                + "man munkelt|corre el rumor|corre o boato|corre o rumor|gira voce|circola voce|il paraît|"
                // (set 33: "Corre la voz de que la peluquera …", "Una vieja crónica … recoge que …", "nadie discute que …")
                + "corre la voz|corría la voz|corre a voz|corria a voz|la rumeur court|nadie discute|ninguém discute|"
                + "nessuno discute|personne ne conteste|no one disputes|nobody disputes|"
                + "se rumorea|si mormora|es sabido|é sabido|è risaputo|it is well known|everyone knows|todo el mundo sabe|"
                + "toda a gente sabe|todo mundo sabe|tout le monde sait|tutti sanno|se enseña|se les enseña|si insegna|on enseigne|"
                + "ensina-se|se ensina|man lehrt|se suele decir|suele decirse|si suol dire|costuma dizer-se|on a coutume de dire|"
                // (set 29: "Pare che a Trieste si dica che …", "Qui in paese si ripete da sempre che …")
                + "si dica|se diga|on dise|si ripete|se repite|se repete|on répète|si ripeteva|se repetía|se repetia|"
                // (set 31: "No clube de palavras cruzadas acredita-se que …")
                + "acredita-se|se cree|si crede|on croit|man glaubt|it is believed|"
                // (set 35: "Lá em casa era ponto assente que …")
                + "ponto assente|cosa risaputa|cosa sabida|"
                // (set 35: "Se comenta en el muelle que …", "No quartel corre a ideia de que …", "la rumeur veut qu'…")
                + "se comenta|si commenta|comenta-se|corre a ideia|corre la idea|l['’]idée circule|circule l['’]idée|"
                + "gira l['’]idea|circola l['’]idea|la rumeur veut|la légende veut|la leggenda vuole|a lenda diz|"
                + "legend[^,.!?]{0,30}? has it|rumou?r[^,.!?]{0,30}? has it|"
                // (set 37: "En la comarca circula la historia de que …")
                + "circula la historia|circula la leyenda|circula el rumor|corre la voz|corre el rumor|circola la storia|"
                + "circola la voce|corre voce|gira voce|circula a história|circula a lenda|corre o boato|corre a voz|"
                + "l['’]histoire circule|le bruit court)"
                + "\\b[^.!?]{0,40}?\\s\(notComparison)(?:(?i:que|che|dass|that)\\b|(?i:qu)['’])",
            // "Cuentan en mi pueblo que …": the plural of telling only as the line's first word
            "^\\P{L}*(?i:cuentan|contam|raccontano|racontent)\\b[^.!?]{0,40}?\\s\(notComparison)(?i:que|che|qu['’])\\b",
            // "…, o eso dice el felpudo del tercero B.", "…, or so says my aunt."
            ",\\s*(?i:o eso|or so|ou pelo menos é o que|du moins c['’]est ce que|o almeno così)\\s+(?:(?i:they|people|ils|on)\\s+)?"
                + "(?:(?i:dice|dicen|says|say|diz|dizem|dit|disent|dicono|sagen|sagt|cuentan|cuenta|contam|conta|raccontano|racontent)|\(claimed))\\b",
            // "… — è scritto col pennarello sulla porta del bagno."
            "[—–]\\s*(?i:è|era|c['’]è|está|estava|it['’]s|it was|es|war|c['’]est|était|steht|stand)?\\s*(?i:scritto|escrito|written|geschrieben|écrit)\\b",
            // An oath with its idiom, wherever it stands: "O meu padrinho jurava a pés juntos que …", "…, hat mir die Bäuerin
            // hoch und heilig versichert." (sets 29, 33)
            "\\b(?i:jura|juram|jurava|juravam|jurou|juraba|juró|juro|jure|jurent|jurait|a juré|giura|giurano|giurava|"
                + "ha giurato|swears|swore|sworn)\\s+(?i:a pés juntos|ses grands dieux|y perjura|e spergiura|blind|"
                + "por todos los santos)\\b",
            "\\b(?i:hoch und heilig)\\s+(?i:versprochen|versichert|geschworen|beteuert|versprach|versicherte|schwor|"
                + "beteuerte|verspricht|schwört)\\b",
            // Hedged hearsay after the line: "…, or so the drivers would like us to think.", "…, or so goes the story in
            // Port Isaac." (set 33)
            ",\\s*(?i:or so|o eso|ou assim|du moins|o almeno|zumindest)\\b[^,.!?]{0,40}?\\b(?i:would like us to think|"
                + "would like us to believe|would have us believe|would have you believe|would have it|goes the story|"
                + "goes the saying|runs the story|the story goes|the saying goes|I['’]m told|I am told|I was told|they tell me|"
                + "me han dicho|me dicen|me dizem|on me dit|mi dicono|quieren hacernos creer)\\b",
            // A lesson taught as a rule: "Gran taught me to always polish glass in circles, …" (set 33)
            "(?:" + subjectThen(60) + "(?i:taught|teaches|has taught)\\s+(?i:me|us)\\s+(?:(?i:to)\\s+)?|\(taughtUs)\\s+(?i:a|à)\\s+)"
                + "(?i:always|never|toujours|ne jamais|sempre|mai|nunca|siempre|jamais)\\b",
            // Someone's view at the end: "…, as far as my brother is concerned.", "…, if you ask Colin." (set 33; not
            // "…, if you ask nicely.")
            ",\\s*(?i:as far as)\\s+(?!(?i:I|I['’]m|we|we['’]re)\\b)[^,]{1,40}\\s(?i:is|are|was|were)\\s+concerned\(end)",
            ",\\s*(?i:if you ask|if you asked|si le preguntas a|si vous demandez à|si tu demandes à|se chiedi a|se lo chiedi a|"
                + "se perguntares a|se perguntar a)\\s*(?:\(possessive)|(?!I\\b)\(name)|(?i:the|any|anyone|a|an|los|las|el|la|les|"
                + "le|i|gli|il|lo|os|as|o|qualquer|cualquier|qualsiasi|n['’]importe))\\b[^,]{0,40}\(end)",
            // A belief everyone holds: "Everyone at the bowls club believes the judges favour …" (set 33)
            "^\\P{L}*(?i:everyone|everybody)\\b[^,.!?]{0,40}?\\s(?i:believes|swears|insists|reckons|is convinced|agrees)\\s+"
                + "(?i:the|a|an|it|it['’]s|there|every|no|you|your)\\b",
            // A trick or a tip given as someone's after a dash, someone's word: "… — an old trick my neighbour
            // guarantees.", "… — palabra de don Ramiro, que …" (set 33)
            "[—–]\\s*(?:(?i:an?|the|un|una|une|um|uma|ein|eine|el|le|il|o)\\s+)?(?:\\p{L}+\\s+)?(?i:trick|tip|remedy|secret|"
                + "truco|consejo|remedio|astuce|conseil|remède|truc|trucco|consiglio|rimedio|segreto|truque|conselho|remédio|"
                + "segredo|tipp|geheimnis)\\s+(?:(?i:de|di|da|do|du|of|von|from)\\s+)?(?:\(possessive)|(?!I\\b)\(name))\\b[^.!?]{0,40}\(end)",
            "[—–,]\\s*(?i:palabra de|palavra de|parola di|parola del|parola della|parole de|word of)\\s+(?!(?i:honor|honra|onore|honneur|honour|mouth|"
                + "god|dios|deus|dio|dieu|warning|advice|caution|thanks|welcome)\\b)\\p{L}",
            // What holds in a club, then the rule: "Beim Kegelclub gilt seit jeher, wer eine Pudel wirft, zahlt …" (set 33)
            "\\b(?i:gilt|galt)(?:\\s+(?i:seit|schon|von|jeher|immer|bis|heute|hier|dort|generationen|jahren|jahrzehnten|"
                + "als|ausgemacht|eisern|unter|uns))*\\s*,\\s*(?!(?i:solange|bis|wenn|nur|auch|sofern|falls)\\b)",
            // A story going round: "Im Krankenhaus geht die Geschichte um, dass …" (set 33)
            "\\b(?i:geht|ging|gehen|gingen)\\s+(?:(?i:die|eine|das|der|ein)\\s+)?(?:\\p{L}+\\s+)?(?i:geschichte|gerücht|"
                + "legende|sage|mär|witz|spruch|erzählung)\\s+um\\b",
            // Not the speaker's own claim, said so: "Ce n'est pas moi qui l'invente, c'est la boulangère : …" (set 33)
            "(?i:ce n['’]est pas moi qui|c['’]est pas moi qui|no lo digo yo|no lo invento yo|não sou eu que o digo|"
                + "não sou eu quem o diz|não sou eu que invento|non lo dico io|non me lo invento io|das sage nicht ich|"
                + "das sag nicht ich|I['’]m not making this up|don['’]t take my word for it)",
            // What a thing says, pointed back at: "…: eso pone en la taza que me regaló mi hermano." (set 33)
            // (not German "das steht dir gut" nor French "cela dit", "that said")
            "[:;,]\\s*(?i:eso|esto|isso|isto|ça|questo|ciò)\\s+(?i:pone|ponía|dice|decía|diz|dizia|dit|disait|"
                + "diceva|reza|rezaba|rezava|recita)\\b(?!\\s+(?i:todo|tudo|tout|tutto|alles|mucho|"
                + "muito|beaucoup|molto|viel|much)\\b)",
            // Tradition that wants it so: "…; così vuole la tradizione, e nessuno la discute." (set 33)
            "\\b(?i:così|cosi|assim|así|asi|ainsi|so)\\s+(?:(?i:lo|le|o|l['’]|es)\\s*)?(?i:vuole|voleva|manda|mandava|"
                + "mandaba|quiere|quería|veut|voulait|will|wollte|exige|exigia|pede|pide)\\s+(?i:la|a|the|die|el|le)\\s+"
                + "(?i:tradizione|tradição|tradicao|tradición|tradicion|tradition|usanza|costumbre|costume|coutume|brauch|sitte)\\b",
            // A belief held by people named after the line: "…, credono da sempre in contrada." (set 33; not "…,
            // believe me.", "…, believe it or not." nor "…, believe in spring.")
            ",\\s*\(believed)\\b"
                + "(?!\\s+(?i:me|mir|moi|mi|it|es|ça|lo|isso|eso|in|en|em|nel|nella|nei|au|aux|an|dans)\\b)[^,]{0,50}\(end)",
            // Someone's refrain or motto named after the line: "…, era il ritornello preferito di mio padre falegname." (set 33)
            "[,:;]\\s*(?:(?i:è|era|fu|es|fue|é|foi|était|c['’]est|c['’]était|is|was|it['’]s|that['’]s|ist|war)\\s+)?"
                + "(?i:il|lo|la|el|le|o|a|the|der|die|das|un|una|une|um|uma|l['’])\\s*(?:\\p{L}+\\s+)?(?i:motto|ritornello|"
                + "refrain|estribillo|refrão|refrao|mantra|lema|tormentone|cantilena|rengaine|dicton|credo|leitspruch|"
                + "wahlspruch|devise|divisa)\\b(?:\\s+\\p{L}+)?\\s+(?i:di|de|del|della|dello|dei|des|du|do|da|dos|das|of|von|"
                + "vom)\\b[^,]{0,40}\(end)",
            // What a proverb or a rule recites after the line: "…, recita il regolamento appeso accanto alla fotocopiatrice."
            // (set 33; not a child reciting a poem in a scene, "…, recita la poesia di Natale e ride.")
            ",\\s*(?i:recita|recitava|recitaba|rezava|rezaba|reza)\\s+(?:\(article)|\(possessive))\\s+(?:\\p{L}+\\s+)?"
                + "(?:\\b(?i:\(DeterministicGate.sayingNouns))\\b|\(printedThing)|(?i:regolamento|reglamento|règlement|regulamento))",
            // A song's or a poem's words as the opener: "Na cantiga das lavadeiras, a água fria do tanque …" (set 33)
            "^\\P{L}*(?i:na|no|nella|nel|en la|en el|dans la|dans le|in the|in der|im|in)\\s+(?i:cantiga|canção|cancao|canzone|"
                + "canción|cancion|chanson|song|lied|fado|copla|ballata|poesia|poema|poem|gedicht|poème|refrão|ritornello|"
                + "estribillo)\\s+(?i:d\\p{L}*|of|von|vom|der|des)\\b[^,]{0,40},\\s"
                // (not what the speaker hears in it: "In the song of the kettle, I hear …")
                + "(?!(?i:I|je|j['’]|eu|io|yo|ich|we|nous|noi|wir|sento|oigo|ouço|entendo|j['’]entends|höre)\\b)",
            // A relative's view as the opener: "Para a tia Lurdes, nenhuma romaria vale a pena …", "Per mia zia Ada chi
            // compra il giornale …" (sets 33 and 39; not English or German, where it is what is done for them: "For
            // Grandad, the whole street turned out …"; without a comma only before "who": "Per mia nonna ho comprato …")
            "^\\P{L}*(?i:pour|para|per)\\s+(?:\(possessive)\\s+)?(?:(?i:la|le|a|o|il|lo|the)\\s+)?\(kin)\\b(?:[^,]{0,25},\\s*"
                + "(?i:nenhum|nenhuma|ningún|ninguna|nessun|nessuna|aucun|aucune|no|nothing|nichts|kein|keine|il|lo|la|le|el|"
                + "los|las|les|o|a|os|as|the|un|una|une|um|uma|der|die|das|ein|eine|there|todo|tudo|tout|tutto|everything|"
                + "alles|rien|nada|niente|nulla)|(?:\\s+\\p{Lu}\\p{L}+)?\\s+(?i:chi|quien|qui|quem))\\b",
            // … or a named person's, set off with who they are: "Pour Lucienne, la relieuse d'en face, le papier …" (set 33)
            // (not a feast, "Per Natale, la nonna prepara i cappelletti, e …", nor German, whose nouns all take capitals)
            "^\\P{L}*(?i:pour|para|per)\\s+(?!(?i:noël|noel|pâques|natale|pasqua|navidad|pascua|natal|páscoa|pascoa)\\b)"
                + "\\p{Lu}\\p{L}+,\\s*(?i:la|le|el|il|o|a|notre|nossa|nostra|nuestra)\\s+(?:[^\\s,]+\\s+){0,4}[^\\s,]+,\\s*"
                + "(?i:la|le|les|el|los|las|il|lo|gli|i|o|a|os|as|un|una|une|um|uma|ogni|chaque|cada|nessun|nessuna|aucun|aucune|"
                + "ningún|ninguna|nenhum|nenhuma|rien|nada|niente|nulla|tout|todo|tudo|tutto)\\b",
            // Someone's view after the line in German, its holder a short noun phrase: "…, findet unser Stadtarchivar."
            // (set 35; not a scene, "Als sie heimkommt, findet sie einen Brief.")
            ",\\s*(?i:findet|fand|meint|meinte)\\s+(?i:unser|unsere|mein|meine|der|die|das|dein|deine|sein|"
                + "seine|ihr|ihre)\\s+(?:\\p{L}+\\s+){0,2}?\\p{Lu}\\p{L}*(?:\\s+(?i:jede|jeden|immer|stets|oft)\\b[^,]{0,25})?\(end)",
            // Someone held as much: "…, at least my mother maintained as much until the day she died." (set 35)
            // (not a thing, "Her face said as much")
            "(?:\\b\(possessive)\\s+\(kin)|(?<=\\s)\(kin)|(?<=\\s)(?!I\\b)\(name))[^,.;:!?]{0,30}\\s(?i:maintained|maintains|claimed|claims|insisted|insists|"
                + "swore|swears|believed|believes|always said|said|says)\\s+as much\\b",
            // A reassurance given to the speaker, without "that": "A man in the queue assured me the overnight ferry is
            // cheaper …" (set 35; not a promise of a thing, "Dad promised me a bike")
            subjectThen(60) + "(?i:assured|assures|has assured|swore to|swears to)\\s+(?i:me|us)\\s+(?i:the|a|an|it|it['’]s|there|"
                + "there['’]s|you|every|no|all|this|his|her|their|our)\\b",
            // Someone fond of saying it, set off inside the line: "Ringing, Martha was fond of telling newcomers, is …" (set 35)
            ",\\s*[^,]{1,40}\\s(?i:was|is|were|are)\\s+(?:(?i:always|ever)\\s+)?fond of (?i:saying|telling|reminding|repeating)"
                + "\\b[^,]{0,30},\\s",
            // The verb of swearing or assuring first, then its speaker and "que": "Juraba el panadero, con la mano en el
            // pecho, que su masa madre …" (set 35)
            "^\\P{L}*(?i:juraba|juró|jurava|jurou|jurait|giurava|giurò|aseguraba|aseguró|asseverava|assurait|afirmaba|"
                + "afirmava|affermava|sostenía|sustentava|sosteneva|soutenait|insistía|insistia|insisteva)\\s+(?:\(article)|"
                + "\(possessive)|\(name))\\b[^.!?]{0,60}?\\s(?:(?i:que|che)\\b|(?i:qu)['’])",
            // Who will bear it out, before the verb: "… — le fromager du marché vous le dira lui-même." (set 35)
            "[—–]\\s*[^,—–]{1,50}\\s(?i:vous le dira|vous le confirmera|te le dira|te le confirmera|te lo dirá|se lo dirá|"
                + "te lo confirmará|te lo dirà|ve lo dirà|te lo confermerà|to dirá|te o dirá|to confirmará|will tell you so|"
                + "will tell you the same|will back me up|wird es dir sagen|wird es dir bestätigen|wird es Ihnen bestätigen)\\b",
            // Someone who wanted it so: "… — ainsi le voulait mon grand-père." (set 35)
            "\\b(?i:così|assim|así|ainsi)\\s+(?i:lo|le|o|l['’])\\s*(?i:vuole|voleva|volle|quiere|quería|quiso|veut|voulait|"
                + "a voulu|quer|queria|quis)\\s+(?:\(possessive)|\(kin)|(?!(?i:la|le|a|o|el|il|lo|the)\\b)\(name))",
            // Going by someone's word, as the opener: "À l'écouter, le marchand de marrons aurait servi …" (set 35;
            // "À l'écouter chanter, j'oublie tout" is a scene: the comma comes at once)
            "^\\P{L}*(?i:à l['’]écouter|à les écouter|à l['’]entendre|à les entendre|a sentirlo|a sentirla|a sentirli|"
                + "ad ascoltarlo|ad ascoltarla|ad ascoltarli|a ouvi-lo|a ouvi-la|a ouvi-los|al oírlo|al oírla|a oírlo|"
                + "oyéndolo|oyéndola|wenn man ihn hört|wenn man sie hört)\\s*,",
            // (not a singer listened to: "Ad ascoltare Mozart, mi rilasso.")
            "^\\P{L}*(?i:à entendre|à écouter|a sentire|ad ascoltare|a ouvir|a escuchar|de ouvir)\\s+(?:\(article)\\s+)?"
                + "(?:\(possessive)|\(kin))[^,]{0,40},",
            // Swearing to have seen it: "Mia sorella giura di aver visto il casaro piangere …" (set 35)
            subjectThen(60) + "(?i:giura|giurava|ha giurato|jura|juraba|juró|jurava|jurou|jure|jurait|a juré|swears|swore|"
                + "schwört|schwor)\\s+(?i:di aver|di avere|de haber|d['’]avoir|de ter|to have|having|gesehen zu haben|avoir|haber|aver)\\b",
            // Hearsay without a speaker after the line: "…, diz-se lá para os lados de Sagres." (set 35)
            ",\\s*(?i:diz-se|dizia-se|conta-se|contava-se|se dice|se decía|se cuenta|se contaba|si dice|si diceva|si racconta|"
                + "si raccontava|on dit|dit-on|disait-on|on raconte|raconte-t-on|heißt es|hieß es|sagt man|sagte man|"
                // (set 37: "…, chantait-on du côté de Nogent.")
                + "chantait-on|chante-t-on|répète-t-on|répétait-on|prétend-on|affirme-t-on|jure-t-on|murmure-t-on|"
                + "erzählt man|it is said|it['’]s said)\\b(?:[^,]{0,40}\(end)|\\s*,\\s)",
            // Who will tell you so, after the line: "…, old Reg on plot nine will tell you." (set 35)
            ",\\s*[^,]{1,50}\\s(?i:will tell you|['’]ll tell you|will tell anyone|would tell you)\(end)",
            // Someone's words set off inside the line, its speaker first: "Launderettes, the old manager believed, are …",
            // "Bookshop cats, Mr Pell once told me, bring …", "Real gardeners, my uncle maintains, water the soil …",
            // "Echte Gärtner, so beteuert mein Onkel, gießen …" (sets 35 and earlier)
            ",\\s*(?:(?i:so|wie)\\s+)?(?:\(article)|\(possessive)|(?!I\\b)\(name))\\s[^,]{0,30}?\\b(?:\(said)|\(claimed)|(?i:once told me|told me|"
                + "liked to remind me|likes to remind me|likes to claim|liked to claim|informs every new member|tells anyone "
                + "who['’]ll listen|tells anyone who will listen))\\s*,\\s\(listGoesOnNot)",
            // … or the speech verb before the words in quotation marks: "In the film, the old detective mutters, "Every
            // door has a key …"" (set 35)
            ",\\s*(?:\(article)|\(possessive)|(?!I\\b)\(name))\\s[^,]{0,30}?\\b(?:\(said)|\(claimed)|\(spoke))\\s*,\\s*[\"“«„‘]",
            // "…, goes the joke among the Sunday band." (set 35)
            ",\\s*(?i:goes|went|runs|ran)\\s+the\\s+(?:\\p{L}+\\s+)?(?i:joke|saying|story|song|rhyme|legend|proverb|refrain|"
                + "superstition|rule|motto|maxim|slogan|verse)\\b",
            // "…, as sailors never tire of reminding passengers …" (set 35)
            "\\b(?i:as)\\s+[^,]{1,30}\\s(?i:never tire|never tires|never tired|never get tired|never gets tired)\\s+of\\s+"
                + "(?i:reminding|telling|saying|repeating)\\b",
            // As someone explained, as the opener: "Conforme me explicou um faroleiro reformado, …" (set 35)
            "^\\P{L}*\(like)\\s+(?:(?i:me|mi|m['’]|nos|ci|nous|l['’]a|lo|le)\\s*)?(?i:explicou|explicó|"
                + "a expliqué|ha spiegato|explained|explicaba|explicava|expliquait|spiegava)\\b[^,:;]{0,60}[,:;]",
            // Repeating or teaching, then a clause: "Grandad kept repeating that onions sulk …" (set 35; not "… kept
            // repeating that joke all through dinner")
            subjectThen(60) + "(?i:kept repeating|keeps repeating|kept saying|keeps saying|taught me|taught us|teaches us|"
                + "teaches me)\\s+that\\s+(?:(?i:the|a|an|it|it['’]s|you|your|there|every|no|nobody|nothing|all|if|when|one|"
                + "people|we|they|he|she|life|love|time)\\b|\\p{L}+s\\s+\\p{Ll})",
            // "If the guidebook is to be believed, …" (set 35)
            "\\b(?i:if)\\s+[^,]{1,40}\\s(?i:is|are)\\s+to\\s+be\\s+believed\\b",
            // Hearsay opening the line and set off: "Allegedly, the pavilion's scones were …" (set 35; not "apparently",
            // which also means "it seems" in a scene)
            "^\\P{L}*(?i:allegedly|reportedly|supposedly|angeblich|por lo visto|pelos vistos|paraît-il|parait-il|dizem que)\\s*,",
            // A conviction held, with "davon" or "en" pointing at the line: "Meine Großmutter war felsenfest davon
            // überzeugt, dass …", "… – davon ist mein Bäcker fest überzeugt.", "Le buraliste en est convaincu : …" (set 35)
            subjectThen(60) + "(?i:ist|war|sind|waren)\\s+(?:\\p{L}+\\s+){0,2}?(?i:davon\\s+)?(?:\\p{L}+\\s+)?überzeugt\\s*,\\s*dass\\b",
            "[—–]\\s*(?i:davon)\\s+(?i:ist|war|sind|waren)\\s+[^.!?]{1,40}\\s(?:(?i:fest|felsenfest)\\s+)?überzeugt\\b",
            "\\b(?i:en)\\s+(?i:est|était|sont|étaient)\\s+(?:(?i:persuadé|persuadée|persuadés|convaincu|convaincue|convaincus|"
                + "convaincues|sûr|sûre|sûrs|certain|certaine))\\s*:",
            // Someone's opinion named after a dash: "… – das ist zumindest die feste Meinung von Frau Kettler." (set 35; not
            // a sight, "— the view of the harbour is worth every step")
            "[—–]\\s*[^,.!?]{0,30}?\\b(?i:die|la|l['’]|a|the)\\s*(?:\\p{L}+\\s+)?(?i:meinung|ansicht|opinión|opinion|avis|"
                + "opinione|opinião)\\s+(?i:von|des|der|de|du|di|del|della|do|da|of)\\b",
            // "…, so erzählt man sich, …", "Der Wirt habe, so heißt es, …" (set 35)
            ",\\s*(?i:so erzählt man sich|so heißt es|so sagt man|wie man sich erzählt|so will es die legende)\\b[^,]{0,30},",
            // A rule that wants it so: "…, so will es die alte Regel in unserem Dorf." (set 35)
            "\\b(?i:so|così|assim|así|ainsi)\\s+(?i:will|wollte|vuole|voleva|quiere|quería|veut|voulait|quer|queria)\\s+"
                + "(?i:es\\s+)?(?i:die|la|a|the|el|le)\\s+(?:\\p{L}+\\s+)?(?i:regel|regola|regla|règle|regra|rule|norma|sitte|brauch)\\b",
            // A saying of a group after a dash: "… – eine Weisheit der Flohmarktprofis, …" (set 35)
            "[—–]\\s*(?:(?i:ein|eine|a|an|un|una|une|um|uma|the|la|el|il|o|le)\\s+)?(?:\\p{L}+\\s+)?"
                + "(?i:\(DeterministicGate.sayingNouns))\\s+(?i:der|des|von|of|de|di|da|do|du|del|della|dos|das|dei|degli)\\b",
            // Holding something the best, in German: "Meine Oma hielt Lindenhonig für das beste Mittel …" (set 35)
            subjectThen(40) + "(?i:hält|hielt|halten|hielten)\\s+[^,.!?]{1,40}\\s(?i:für)\\s+(?:(?i:das|den|die|der|ein|eine|einen)\\s+)?"
                + "\\p{Ll}\\p{L}*(?:ste|sten|ster|stes)\\s+\\p{Lu}",
            // What popular belief or a legend holds, as the opener: "Dem Volksglauben nach schwärmen Bienen nie …" (set 35)
            "^\\P{L}*(?i:dem volksglauben nach|dem aberglauben nach|der legende nach|der sage nach|nach altem volksglauben|"
                + "laut volksmund)\\b",
            // A theory given as someone's: "El quiosquero tiene su teoría: …", "Le patron … a sa théorie : …" (set 35; not
            // the speaker's own, "I have a theory: …")
            subjectThen(40) + "(?i:tiene|tenía|a|avait|ha|aveva|tem|tinha|has|had|hat|hatte)\\s+(?i:su|sa|sua|his|her|their|seine|"
                + "ihre|una|une|a|uma)\\s+(?:\\p{L}+\\s+)?(?i:teoría|théorie|teoria|theory|theorie)\\s*:",
            // An unwritten rule, a rule handed down: "Los de la lonja tienen una regla no escrita: …", "… vale una regola
            // tramandata da generazioni: …" (set 35)
            "\\b(?i:regla no escrita|règle non écrite|regola non scritta|regra não escrita|unwritten rule|ungeschriebenes gesetz|"
                + "ungeschriebene regel)\\b",
            "\\b(?i:regola|regla|règle|regra|rule|saying|detto|dicho|dicton|ditado|norma)\\s+(?:\\p{L}+\\s+)?(?i:tramandat\\p{L}*|"
                + "transmise|transmitida|transmitido|handed down|passed down|überliefert\\p{L}*)",
            // A lesson taught by nobody named: "De pequeño me enseñaron que …", "Sempre me ensinaram que …" (set 35)
            "\\b(?i:me enseñaron|nos enseñaron|me ensinaram|nos ensinaram|mi hanno insegnato|ci hanno insegnato|"
                + "on m['’]a appris|on nous a appris|man hat mir beigebracht|man hat uns beigebracht|I was taught|we were taught)"
                + "\\s*,?\\s+(?:(?i:que|che|that|dass)\\b|(?i:qu)['’])",
            // A study's findings: "Un estudio que salió en el periódico concluía que …" (set 35)
            "\\b(?i:study|estudio|étude|studio|estudo|studie|survey|encuesta|enquête|sondaggio|inquérito|umfrage)\\b[^.!?]{0,50}?"
                + "\\s(?i:concluded|found|shows|showed|concluía|concluyó|concluye|demuestra|demostró|concluait|conclut|a montré|"
                + "montre|concludeva|ha dimostrato|dimostra|concluiu|concluía|mostra|mostrou|zeigt|zeigte|ergab)\\s+"
                + "(?:(?i:que|che|that|dass)\\b|(?i:qu)['’])",
            // Heard someone say it: "A mi suegra le oí decir una vez que …", "…, ouvi eu a um taxista." (set 35)
            "\\b(?i:le oí decir|les oí decir|le escuché decir|lui ai entendu dire|leur ai entendu dire|l['’]ai entendu dire|"
                + "gli ho sentito dire|le ho sentito dire|ouvi-lhe dizer|ouvi-o dizer|ouvi-a dizer|I heard (?:him|her|them) say)\\b",
            // (not "…, ouvi a chuva e voltei a dormir.")
            ",\\s*(?i:ouvi eu|ouvi-o|ouvi isto|ouvi isso|se lo oí|se lo escuché|je l['’]ai entendu|l['’]ho sentito|"
                + "I heard it|I had it)\\s+(?i:a|ao|à|de|da|dal|dalla|from|de la bouche d\\p{L}*)\\s+[^,]{1,40}\(end)",
            // A habit of saying: "Il capitano del traghetto aveva l'abitudine di dire che …" (set 35; not "the habit of saying
            // goodnight to the moon")
            "\\b(?i:abitudine|costumbre|habitude|hábito|habito|mania|manía|habit|gewohnheit)\\s+(?i:di|de|d['’]|of)\\s*"
                + "(?i:dire|decir|dizer|repetir|ripetere|répéter|saying|repeating|telling us|telling me)\\b"
                + "(?:\\s+\\p{L}+){0,3}?\\s*,?\\s+(?:(?i:que|che|that|dass)\\b|(?i:qu)['’])",
            // What everyone knows, before a colon: "Na aldeia toda a gente sabe: …" (set 35)
            "\\b(?i:everyone knows|everybody knows|toda a gente sabe|todo mundo sabe|tout le monde sait|tutti sanno|"
                + "todo el mundo sabe|jeder weiß|alle wissen)\\s*:",
            // A village agreeing on it: "… — nisso, a aldeia inteira está de acordo." (set 35)
            "\\b(?i:nisso|nisto|en eso|en esto|là-dessus|sur ce point|su questo|darin|on that|on this)\\s*,\\s*[^,.!?]{1,40}\\s"
                + "(?i:está|estão|estava|están|estaba|est|sont|était|è|sono|era|ist|sind|war|is|are|was)\\s+(?i:de acordo|"
                + "de acuerdo|d['’]accord|d['’]accordo|einig|agreed|unanimous|unânime|unánime|unanime|unanimes)\\b",
            // Something someone calls wisdom: "…, voilà ce que ma voisine appelle du bon sens." (set 35)
            "\\b(?i:voilà ce que|c['’]est ce que|that['’]s what|esto es lo que|eso es lo que|questo è ciò che|isso é o que|"
                + "è quello che|es lo que|é o que)\\s+(?:\(possessive)|\(kin)|\(article)|(?!I\\b)\(name))[^,.!?]{0,30}\\s"
                + "(?i:appelle|appelait|calls|called|llama|llamaba|chiama|chiamava|chama|chamava|nennt|nannte)\\s+"
                // (wisdom, not "… : c'est ce que ma fille appelle une aventure.")
                + "(?i:du bon sens|le bon sens|common sense|wisdom|la sagesse|sagesse|sabiduría|saggezza|sabedoria|sentido común|"
                + "buon senso|bom senso|senso comune|gesunden menschenverstand)\\b",
            // Hedged hearsay after the line, with its teller: "…, almeno così racconta il pasticcere di Vico.", "…, ou
            // assim se conta no Castelo.", "…, or so boaters have believed for generations." (set 35)
            "[,—–]\\s*(?i:or so|o eso|o al menos eso|ou assim|ou pelo menos assim|almeno così|o almeno così|du moins)\\s+"
                + "(?!(?i:I|we|je|j['’]|yo|io|eu|ich|wir)\\b)(?:[^,.!?]{1,30}?\\s)?(?:\(said)|\(claimed)|(?i:have believed|has believed|had believed|se conta|se diz|se dice|"
                + "racconta|raccontano|raconte|racontent|cuenta|cuentan|dice|dicen|diz|dizem|me explicó|me dijo|me contó|"
                // (set 37: "…, o così la pensa il maestro Zanetti.")
                + "la pensa|la pensava|la pensano|la piensa|le pense|o pensa))\\b",
            // "… at least according to …": "…, almeno secondo la signora del banco accanto." (set 35)
            ",\\s*(?i:almeno|al menos|por lo menos|du moins|au moins|at least|zumindest|wenigstens|pelo menos|ao menos)\\s+"
                + "\(according)\\s",
            // Someone's view set off by "according to" with a person: "El pan de la víspera, según mi abuela, sabe …",
            // "…, selon mon médecin qui en raffole." (set 35; "selon la saison" is "depending on")
            // (not one's own tastes or means, "…, selon mes habitudes.")
            ",\\s*\(according)\\s+(?:(?i:il|la|o|a|le|el)\\s+)?(?:\(possessive)|\(kin))\\b(?!\\s+(?i:goût|goûts|gusto|gustos|gosto|"
                + "gostos|habitude|habitudes|costumbre|costumbres|costume|costumes|abitudine|abitudini|humeur|humor|umore|envie|"
                + "envies|ganas|voglia|vontade|mood|taste|tastes|habit|habits|moyens|medios|mezzi|meios|means|possibilités|"
                + "posibilidades|possibilità|possibilidades|needs|besoins|necesidades|bisogni|necessidades)\\b)[^,]{0,40}(?:,\\s|\(end))",
            // A song's or a poem's words given as what it tells: "La chanson des colons raconte que …", "That song about the
            // Leeds and Liverpool canal has it that …" (set 35)
            // (German "Lied" capitalised: "lied" is a lie in English)
            "\\b(?:(?i:chanson|canción|cancion|canzone|canção|cancao|cantiga|song|poème|poema|poem|gedicht|copla|fado)|Lied)\\b"
                + "[^.!?]{0,50}?\\s(?i:raconte|racontait|dit|disait|cuenta|contaba|dice|decía|canta|cantava|cantaba|chante|chantait|"
                + "racconta|raccontava|diceva|conta|contava|diz|dizia|says|said|tells|told|sings|sang|has it|erzählt|sagt|singt)"
                + "\\s+(?:(?i:que|che|that|dass)\\b|(?i:qu)['’])",
            // Someone's words, plural, after the line: "…, palavras do meu médico de família." (set 35)
            "[—–,]\\s*(?i:palavras|palabras|parole|paroles|words)\\s+(?i:do|da|del|della|de|di|du|of)\\s+(?:\(possessive)|\(kin))\\b",
            // The plural of saying after the line, its speakers named: "…, dicono gli anziani dell'orto di via Padova." (set 35)
            // (not English, where it is advice: "…, say the password and wait.")
            ",\\s*(?i:dicono|dicevano|dicen|decían|disent|disaient|dizem|diziam|sagen|sagten)\\s+(?i:gli|i|le|los|las|les|os|as|"
                + "die|alle|todos|tous|tutti)\\s+[^,]{1,50}\(end)",
            // A motto or a golden rule named after a dash or a comma: "… — era o lema da padaria do meu bairro.", "…, c'était
            // la règle d'or de mon père." (set 35)
            "[—–,;:]\\s*(?:(?i:è|era|fu|es|fue|é|foi|était|c['’]est|c['’]était|is|was|it['’]s|that['’]s|ist|war|esa es|essa é|"
                + "ça a été|that was)\\s+)?(?i:il|lo|la|el|le|o|a|the|der|die|das|l['’])\\s*(?:(?i:motto|lema|devise|divisa|"
                + "wahlspruch|leitspruch|règle d['’]or|regla de oro|regola d['’]oro|regra de ouro|golden rule|norma))\\s+"
                + "(?i:di|de|del|della|dello|dei|des|du|do|da|dos|das|of|von|vom|der|pintado|pintada|painted|escrito|"
                + "written|gemalt|peint|peinte|dipinto|inciso|engraved)\\b",
            // A motto as the subject: "The ringers' motto, painted above the door, is …", "O lema dos voluntários … : …"
            // (set 35; not the speaker's own, "My motto is …")
            "^\\P{L}*(?i:the|el|la|le|il|lo|o|a|der|die|das|l['’])\\s*[^.!?:]{0,30}?\\b(?i:motto|lema|devise|divisa|wahlspruch|"
                + "leitspruch)\\b[^.!?]{0,50}?(?:\\s(?i:is|was|ist|war|es|era|est|était|è|é|foi)\\s*[\"“«„'‘]|:)",
            // The speaker first and a claim's verb at the end: "…, the older cornet players insist.", "…, my aunt Rosie
            // reckons." (set 37)
            ",\\s*(?:\(article)|\(possessive)|(?!I\\b)\(name))\\s[^,]{0,40}?\\b(?i:insist|insists|reckon|reckons|maintain|"
                + "maintains|swear|swears|claim|claims|will swear|would swear|assure me|assure us)"
                + "(?:\\s+(?i:so|it|always|still|to this day))?\(end)",
            // Someone's opinion or experience, not the speaker's: "…, in the vicar's opinion.", "Folding chairs, in the
            // caretaker's experience, last longer …", "in my aunt's view" (set 37; not "in my experience", "in one's view",
            // "in short, it's opinion"): the owner one noun phrase
            "\\b(?i:in)\\s+(?:(?i:his|her|their)|(?:(?i:the|my|our|your|his|her|their)\\s+)?(?:\\p{L}+\\s+){0,2}?"
                + "(?!(?i:one|it|that|what|who|here|there|he|she)['’])\\p{L}+['’]s?)\\s+"
                + "(?:(?i:humble|considered|expert|long)\\s+)?(?i:opinion|view|experience|estimation|reckoning)\\b",
            // Someone's theory, rule or advice named after the line: "— at least, that's Coach Marlow's theory.", "— Mum's
            // rule, not mine.", "…, was Grandpa's line every single Saturday." (set 37)
            "[—–,;]\\s*(?:(?i:at least|or at least|anyway)\\s*,?\\s*)?(?:(?i:that['’]s|that is|that was|was|is)\\s+)?"
                // (not "that's rule one", "it's advice")
                + "(?!(?i:my|our|mine|its)\\b)(?:(?i:the)\\s+)?(?:\\p{L}+\\s+){0,3}?(?!(?i:that|it|here|there|what|who|let|he|she)['’])"
                + "\\p{L}+['’]s?\\s+(?:(?i:favourite|favorite|firm|"
                + "old|golden|pet|own)\\s+)?(?i:theory|rule|motto|advice|saying|creed|maxim|mantra|philosophy|doctrine)\\b",
            // (a line is someone's only when a name or a relative owns it: not "…, that's the tram's line")
            "[—–,;]\\s*(?i:that['’]s|that was|was|is)\\s+(?:(?:\(possessive)|(?i:the))\\s+)?(?:\(name)|\(kin))['’]s\\s+"
                + "(?:(?i:favourite|favorite|pet|stock)\\s+)?(?i:line|phrase|refrain)\\b",
            // … the same in the Romance languages and German: "— conselho do meu tio camionista, …", "— una teoria del
            // nostro tenore, …", ": regola numero uno della guida alpina …", "Fíate del puesto con más cola, era el consejo
            // de mi vecina Maruja …", "…; so jedenfalls die Theorie meines Onkels." (set 37; after a comma only with its
            // verb and article: "…, il consiglio di classe …" is a scene)
            "(?:[—–:;]\\s*(?:\(namedAsVerb)\\s+)?(?:\(namedAsArticle)\\s*)?|,\\s*\(namedAsVerb)\\s+\(namedAsArticle)\\s*)"
                + "(?i:regra|regla|règle|regola|teoria|teoría|théorie|conselho|consejo|conseil|consiglio|croyance|creencia|"
                + "credenza|crença|lema|devise|motto)\\s+(?:(?i:número um|número uno|numero uno|numéro un|de oro|d['’]or|"
                + "d['’]oro|de ouro)\\s+)?(?i:do|da|dos|das|de|del|della|dello|dei|des|du|di)\\s",
            "[—–,;]\\s*(?:(?i:so)\\s+(?:(?i:jedenfalls|zumindest|wenigstens)\\s+)?(?:(?i:lautet|lautete)\\s+)?)?(?i:die|der)\\s+"
                + "(?i:theorie|faustregel|regel|devise|lehre|weisheit|überzeugung|meinung)\\s+(?i:meines|meiner|unseres|unserer|"
                + "des|der|von)\\b",
            // A rule someone lived by, a favourite saying: "— a rule my aunt lived by …", "My dad's favourite saying was
            // that …" (set 37; not the speaker's own: "My favourite saying is …")
            "\\b(?i:rule|motto|maxim|creed)\\s+(?:\(article)|\(possessive)|(?!I\\b)\(name))\\s[^,.!?]{0,25}?\\b(?i:lived by|"
                + "lives by|swore by|swears by)\\b",
            "(?<!(?i:my|our)\\s)\\b(?i:favourite|favorite|pet|stock)\\s+(?i:saying|motto|maxim|phrase|expression|proverb)\\s+"
                + "(?:(?i:was|is)\\b|:)",
            // A belief held for long or firmly, without "that": "The whole village has long believed the hall's stage …",
            // "Gardeners on our allotment site are convinced a hard frost …", "There's a belief among drivers …" (set 37; a
            // group's conviction, not one person's, which a scene has too: "Mia is convinced the last ferry has gone, so …")
            subjectThen(60) + "(?i:are convinced|has long believed|have long believed|had long believed|"
                + "has always believed|have always believed|has always held|have always held|have a firm belief|"
                + "has a firm belief)\\s+(?!(?i:that|of|about|by|in)\\b)(?i:the|a|an|every|no|nothing|it|its|it['’]s|there|you|"
                + "your|all|only)\\b",
            "^(?!\\P{L}*(?i:I|we)\\s)[^.!?]*?\\b(?i:a|the)\\s+(?:(?i:firm|strong|long-held|long-standing|old|widespread|"
                + "common)\\s+)?(?i:belief|conviction)\\s+(?i:among|amongst|that)\\b",
            // Who tells us, set off: "Buses, one old timetable clerk once explained to me, are …", "…, the county
            // guidelines tell us, and …", "…, or so the fanciers down our street keep telling me." (set 37)
            ",\\s*(?:(?i:one|an?|the|my|our)\\s+)[^,]{0,30}?\\b(?i:once explained to me|explained to me|tell us|tell me|"
                + "assure us|assure me|keep telling me|keep telling us|keep reminding us|remind us)\\s*,\\s",
            ",\\s*(?i:or so)\\s+[^,.!?]{1,30}?\\s(?i:keep telling|keep saying|keep reminding|kept telling|kept saying)\\b",
            // A certainty in Italian and French pointing back at the line with "ne"/"en", or a bet on it: "…, ne sono
            // certi i vignaioli delle Langhe.", "…, ci scommetteva il vecchio proprietario." (set 37)
            ",\\s*(?i:ne sono|ne è|ne era|ne erano|en est|en sont|en était|en étaient)\\s+(?i:certi|certe|certo|certa|convinti|"
                + "convinte|convinto|convinta|sicuri|sicure|sicuro|sicura|convaincu|convaincue|convaincus|sûr|sûre|sûrs|certain|"
                + "certaine|certains|persuadé|persuadée|persuadés)\\s+\\p{L}",
            ",\\s*(?i:ci scommetteva|ci scommette|ci scommettono|ci giurerebbe|ci giurava|ci giura|ci metterebbe la mano sul "
                + "fuoco|en mettrait sa main au feu|pondría la mano en el fuego)\\s+\\p{L}",
            // Told by people of a place, set off or after the line: "…, mi spiegano all'osteria, …", "…, mi assicurano al
            // bar, …" (set 37)
            ",\\s*(?i:mi|ci|me|nos|m['’]|nous)\\s*(?i:spiegano|dicono|assicurano|raccontano|giurano|dicen|explican|aseguran|"
                + "cuentan|juran|dizem|explicam|garantem|contam|juram|disent|expliquent|assurent|racontent|jurent)"
                // (where, or nothing: not "…, mi dicono grazie e se ne vanno.")
                + "(?:\\s+(?i:a|al|all['’]|allo|alla|in|nel|nella|en|au|à|aux|no|na|em|dans|sur|sempre|siempre|toujours|"
                + "tutti|todos|tous)\\b[^,]{0,40})?(?:,|\(end))",
            // What is read somewhere, set off: "…, lê-se no verso do bilhete.", "Im Wanderführer … ist nachzulesen, …" (set 37)
            ",\\s*(?i:lê-se|le-se|se lee|on lit|peut-on lire|si legge|liest man)\\s+(?i:no|na|nos|nas|em|en|el|la|sur|dans|"
                + "nel|nella|sul|sulla|auf|im|in)\\b",
            "\\b(?i:ist nachzulesen|ist zu lesen|kann man nachlesen|steht geschrieben)\\b",
            // Listening to a trade, after the line: "…, si l'on écoute les arboriculteurs du coin." (set 37)
            ",\\s*(?i:si l['’]on écoute|si on écoute|à écouter|a dar ascolto a|si escuchas a|se ouvirmos)\\s+(?:\(article)|"
                + "\(possessive)|(?i:les|los|las|gli|i|os|as))\\s[^,]{1,40}\(end)",
            // A group's view as the opener, in French, Spanish, Italian and Portuguese: "Pour les anciens du village, le
            // bal …", "Per i nonni del paese, l'uva …", "Para los del coro, quien …" (set 37; English and German as for
            // relatives, above)
            "^\\P{L}*(?i:pour|para|per)\\s+(?i:les|los|las|gli|i|os|as|le|la|il|el|o|a|lo|l['’])\\s*(?:(?i:anciens|vieux|"
                + "anziani|vecchi|nonni|mayores|viejos|abuelos|antigos|velhos|avós|habitants|abitanti|habitantes|gente|gens|"
                + "parroco|prete|curé|cura|padre|abade|maestro|maestra|mestre|professeur|professore|médico|medico|médecin|"
                + "dottore|capitano|capitaine|capitão|capitán|patron|patrón|padrone|maire|sindaco|alcalde|presidente)|"
                // (named, not guessed from an ending: "Para a feira, …", "Para o primeiro dia, …" are occasions)
                + "(?i:del|do|dos|das|du|des|dei|della|de los|de la))\\b[^,]{0,30},\\s*(?i:nenhum|nenhuma|ningún|"
                + "ninguna|nessun|nessuna|aucun|aucune|il|lo|la|le|el|los|las|les|o|a|os|as|un|una|une|um|uma|l['’]|todo|tudo|"
                + "tout|tutto|rien|nada|niente|nulla|quien|chi|qui|quem|si|se|un|uno)\\b",
            // Reported speech in German, by the form of the verb (Konjunktiv I) after a subject of the third person:
            // "Die Waffel sei das Wichtigste am Eis, …", "Eltern … tuscheln, die neue Leiterin habe früher …" (set 37;
            // not "Es sei denn", "Gott sei Dank", "Wie dem auch sei", nor the first person, "Heute habe ich …")
            // (nor Portuguese "das coisas que eu sei")
            "(?:^\\P{L}*|,\\s*)(?i:der|die|das|ein|eine|jeder|jede|jedes)\\s+(?:(?!(?i:ich|wir|du|ihr|und|oder|eu|que|não)\\b)"
                + "\\p{L}+\\s+){0,4}(?<!(?i:auch)\\s)(?:sei|seien|müsse|könne|solle|dürfe|habe|werde|stehe|liege|bringe|gebe|"
                + "wisse|möge|bleibe|fließe|komme|brauche|helfe)\\b(?!\\s+(?i:ich|wir|denn|dank)\\b)",
            "^\\P{L}*\\p{Lu}\\p{Ll}+\\s+(?:(?!(?i:ich|wir|du|ihr|und|oder)\\b)\\p{L}+\\s+){0,4}(?<!(?i:auch)\\s)"
                // (the modal forms only, which no imperative shares: "Bitte bringe mir …")
                + "(?:müsse|könne|solle|dürfe|wisse|möge)\\b(?!\\s+(?i:ich|wir|denn|dank)\\b)",
            // … and a rule reported with "man": "…, man solle Brot niemals im Zorn anschneiden." (not "man müsse", which a
            // scene reports too: "Die Verkäuferin ruft …, man müsse nur wackeln.")
            ",\\s*(?i:man)\\s+(?:solle|dürfe|möge)\\b",
            // Someone's view as the opener, in German: "Ihrer Meinung nach erkennt man …" (set 37)
            "^\\P{L}*(?i:seiner|ihrer|deren|dessen)\\s+(?i:meinung|ansicht|überzeugung)\\s+nach\\b",
            // A lesson someone drilled in, after the line: "…, hat uns der Lagerleiter jeden Abend eingeschärft.", "… – diese
            // Lektion hat mir Kletterlehrer Jonas beigebracht." (set 37)
            "[,—–]\\s*(?:(?i:das|diese lektion|diese regel|diesen rat|das alles)\\s+)?(?i:hat|hatte|haben|hatten)\\s+"
                + "(?i:uns|mir|mich)\\s+[^,]{1,50}\\b(?i:eingeschärft|beigebracht|eingebläut|erklärt|erzählt|versichert|"
                + "gesagt|geraten|gepredigt)\(end)",
            // Lore that holds, before a colon: "In unserer Familie gilt seit jeher: …" (set 37)
            "\\b(?i:gilt|galt)\\s+(?:(?i:seit jeher|seit jahren|seit generationen|schon immer|immer|bis heute)\\s*)?:",
            // Where it stands written, after a dash: "… – das stand auf dem Banner …", "… – so prangt es in Schönschrift
            // über der Theke …" (set 37; "steht" only on a thing that carries words: "– es steht auf dem Herd" is a scene)
            "[—–]\\s*(?i:das|so|es)\\s+(?:(?i:prangt|prangte)\\b|(?i:stand|steht)\\s+(?:(?i:es)\\s+)?(?:[^,.!?]{0,20}\\s)?"
                + "(?i:auf|in|an|über)\\s+(?i:dem|der|den|einem|einer)\\s+\\p{L}*(?i:banner|schild|tafel|zettel|etikett|plakat|"
                + "packung|karte|brett|buch|kalender|spruchband|fahne|heft|brief))",
            // "…, so die alten Leute auf Föhr." (set 37)
            ",\\s*(?i:so)\\s+(?i:die|der|mein|meine|unser|unsere)\\s+[^,]{1,40}\(end)",
            // Tradition or legend that wants it so, after the line: "…, manda a tradição da família Carvalho.", "…, veut la
            // tradition des bateliers." (set 37)
            ",\\s*(?i:manda|mandava|veut|voulait|vuole|voleva|quiere|quería|will|wollte)\\s+(?i:a|la|the|die|el|il)\\s+"
                + "(?i:tradição|tradition|tradizione|tradición|legende|leggenda|leyenda|légende|lenda|überlieferung|costume|"
                + "costumbre|coutume|usanza|sitte|brauch)\\b",
            // "Cuenta la leyenda que …" (set 37)
            "^\\P{L}*(?i:cuenta|conta|racconta|raconte|dice|diz|dit)\\s+(?i:la|a|le|il|o|l['’])\\s*(?i:leyenda|lenda|légende|"
                + "leggenda|tradición|tradição|tradition|tradizione)\\b",
            // Someone's legend, a tradition or a saying as the credit: "…, selon la légende du quartier, …" (set 37)
            "\(according)\\s+(?i:la|le|l['’]|les|el|lo|il|o|a|the|die|der)\\s*(?:\\p{L}+\\s+)?(?i:légende|leggenda|leyenda|"
                + "lenda|legend|legende|tradition|tradizione|tradición|tradição|überlieferung|rumeur|rumor|voce|boato|"
                + "croyance|creencia|credenza|crença|\(DeterministicGate.sayingNouns))\\b",
            "^\\P{L}*(?i:nach der überlieferung|der überlieferung nach|laut überlieferung)\\b",
            // A proverb or a tradition that holds it: "An old Yorkshire proverb holds that …" (set 37)
            "\\b(?i:\(DeterministicGate.sayingNouns)|tradition|lore|legend|wisdom)\\s+(?i:holds|held|has long held)\\s+that\\b",
            // A saying named after the line, its verb first: "…, dit le dicton ; …" (set 37)
            ",\\s*(?i:dit|dice|diz|sagt|says|dicen|disent|dicono|dizem|reza|recita)\\s+(?i:le|el|il|lo|o|das|der|the|un|una|um|"
                + "ein|l['’])\\s*(?:\\p{L}+\\s+)?(?i:\(DeterministicGate.sayingNouns))\\b",
            // Someone who says it all the time, pointed back at after a dash or a semicolon: "…; mi abuelo lo soltaba cada
            // vez que …", "… — lo dice sempre il mio vicino, …" (set 37)
            "[;—–]\\s*(?:(?:\(possessive)|\(article))\\s[^,;]{0,25}?\\s)?(?i:lo|la|l['’])\\s*(?i:soltaba|suelta|decía|dice|"
                // (not the idiom "— la dice lunga")
                + "repetía|repite|diceva|ripete|ripeteva|disait|dit|répète|répétait|dizia|diz|repete|repetia)\\b(?!\\s+(?i:lunga)\\b)",
            // A sign announcing it, pointed back at: "…; así lo anuncia la pancarta de la entrada.", "… ou pelo menos é o que
            // anuncia a placa à entrada.", "… — pelo menos é o que as velhas contam …" (set 37)
            "\\b(?i:así|assim|così|ainsi)\\s+(?i:lo|o|le|la)\\s+(?i:anuncia|anuncian|dice|dicen|cuenta|cuentan|afirma|proclama|"
                + "indica|annuncia|dicono|racconta|afferma|diz|dizem|conta|contam|dit|disent|raconte|affirme|annonce|"
                + "proclame)\\s+(?:\(possessive)|\(article)|(?i:los|las|les|gli|i|os|as))\\s",
            "\\b(?i:é o que|es lo que|c['’]est ce que|è quello che|that['’]s what)\\s+(?:(?i:anuncia|diz|dizem|conta|contam|dice|"
                + "dicen|cuenta|cuentan|dit|disent|raconte|racontent|annonce|dicono|racconta|raccontano|annuncia|says|claims)\\s+"
                + "(?:\(possessive)|\(article)|(?i:los|las|les|gli|i|os|as))|(?:\(possessive)|\(article)|(?i:los|las|les|gli|i|os|"
                + "as))\\s[^,.!?]{0,30}?\\b(?i:contam|conta|dizem|diz|cuentan|cuenta|dicen|dice|racontent|raconte|disent|dit|"
                + "raccontano|racconta|dicono|say|says|claim|claims|tell|tells))\\b",
            // What someone will repeat to you: "Paco, el mecánico, te lo repetirá mil veces: …" (set 37)
            "\\b(?i:te lo repetirá|te lo dirá|vous le répétera|te lo ripeterà|te lo dirà|vai repetir-te|vai dizer-te)\\b",
            // Explained to the speaker by nobody named: "De pequeño me explicaron que …" (set 37)
            "\\b(?i:me explicaron|nos explicaron|mi hanno spiegato|ci hanno spiegato|explicaram-me|explicaram-nos|"
                + "on m['’]a expliqué|on nous a expliqué|on m['’]a appris|on nous a appris)\\s+(?i:que|che|qu['’])",
            // A saying set off with who taught it: "Un bon relieur, m'a appris Mme Ferrand, se reconnaît …" (set 37)
            ",\\s*\(taughtUs)\\s+(?:\(possessive)|\(article)|\(kin)|\(name))[^,]{0,30},\\s",
            // A sign that showed it: "…, voilà ce qu'affichait la piscine de notre enfance." (set 37)
            "\\b(?i:voilà|voici|c['’]est|c['’]était)\\s+ce\\s+qu['’](?i:affich|dis|dit|répét|racont|affirm|assur|proclam|"
                + "annon)\\p{L}*\\s+(?:\(possessive)|\(article)|(?i:les|l['’]))",
            // Learned from someone, pointed back at: "Que o elétrico nunca espera …, isso aprendi com o senhor Vítor …" (set 37)
            "\\b(?i:isso|isto|eso|esto|ça|cela|questo|das)\\s+(?i:aprendi|aprendí|j['’]ai appris|ho imparato|habe ich gelernt)"
                + "\\s+(?i:com|con|de|avec|da|dal|dalla|von|vom|bei)\\b",
            // Written in a book, opening the line: "Está escrito no guia turístico: …" (set 37)
            "^\\P{L}*(?i:está escrito|estaba escrito|c['’]est écrit|è scritto|era scritto|it['’]s written|it is written)\\s+"
                + "(?i:no|na|en|el|la|in|nel|nella|sul|dans|sur|im|auf)\\b",
            // Habits of telling, with the words in quotation marks: "Our swimming teacher used to tell us, "The water …""
            // (set 37)
            "\\b(?i:used to tell us|used to tell me|used to say|always told us|always told me|would always say|always said)"
                + "\\s*[,:]\\s*[\"“«„‘]",
            // "Dad taught me you should always lay a hedge uphill, …" (set 37)
            subjectThen(60) + "(?i:taught me|taught us)\\s+(?i:you|never|always|nothing|no one|nobody|every)\\b",
            // What everyone of a trade knows, after a dash: "… – das weiß doch jeder Laubenpieper.", "… — any orchard
            // keeper knows that." (set 39; in English at the end only: "— every child knows that song by heart" is a scene)
            "[—–;:]\\s*(?:(?i:das)\\s+(?i:weiß|weiss|wusste)\\s+(?:(?i:doch|ja|schon|hier)\\s+)?(?i:jeder|jede|jedes)\\b|(?i:any|every)\\s+"
                + "(?:\\p{L}+\\s+){0,2}?\\p{L}+\\s+(?i:knows|will tell you|can tell you)(?:\\s+(?i:that|it|this|so))?\(end))",
            // Where it is written, set off or pointed back at, in German: "…, steht auf dem Zettel, den jemand …", "…, so
            // ungefähr steht es in einem Roman …" (set 39)
            "(?:,\\s*(?:(?i:so|so ungefähr|so ähnlich)\\s+)?(?i:steht|stand)\\s+(?:(?i:es)\\s+)?|\\b(?i:steht es|stand es)\\s+)"
                // (the thing itself, not something beside it: "…, steht auf dem Tisch neben der Geburtstagskarte")
                + "(?i:auf|in|im|an)\\s+(?:(?i:dem|der|den|einem|einer|meinem|meiner)\\s+)?(?:\\p{L}+\\s+)?(?:\(printedCompound)|"
                + "\\p{L}*(?i:buch|roman|heft|kalender|aushang|plakat|tafel|brief|karte))\\b",
            // Someone who repeats it, after a dash: "… – Frau Albers im Bücherbus wiederholt das bei jeder Ausleihe." (set 39)
            // (the pronoun, not an article: "– der kleine Tim wiederholt das Lied …", "— Dad repeats that joke …")
            "[—–]\\s*(?:\(article)|\(possessive)|\(name))\\s[^,.;!?]{0,40}?\\b(?:(?i:wiederholt|wiederholte|predigt|predigte|"
                + "betont|betonte|beteuert|behauptet|schwört)\\s+(?i:das|es|dies)\\b(?!\\s+\\p{Lu})|(?i:repeats|preaches|swears by)"
                + "\\s+(?i:it|that|this)(?=\\s*[.,;!?]|\\s+(?i:every|each|to|at|all|whenever|daily|endlessly|constantly|often|"
                + "always)\\b))",
            // A lesson or a philosophy named as someone's: "…: lezione di mio nonno, imparata a mie spese.", "…: era la
            // filosofia del signor Bonetti, …" (set 39; not a lesson of something: "…: lezione di piano il martedì")
            "[—–:;,]\\s*(?:\(namedAsVerb)\\s+)?(?:\(namedAsArticle)\\s*)?"
                // (an elder's: "Martedì: lezione di mio figlio in piscina" is a child's lesson)
                + "(?i:lezione|lição|lección|leçon|filosofia|filosofía|philosophie)\\s+(?i:di|del|della|de|do|da|du|des)\\s+"
                + "(?:(?:\(possessive)\\s+)?\(kin)|(?i:signor|signora|señor|señora|senhor|senhora|monsieur|madame|dona|don|"
                + "maestro|maestra|mestre|professor|professore|professeur))\\b",
            // Someone's carved words before a colon: "… qualcuno ha inciso a coltello: la montagna non ha fretta." (set 39;
            // not written ones, which can be a scene: "Someone has written on the fogged window: a heart, two initials …")
            "\\b(?i:qualcuno|someone|somebody|jemand|alguien|quelqu['’]un|alguém)\\s+(?:\\p{L}+\\s+){0,3}?(?i:inciso|intagliato|"
                + "gravé|grabado|grabó|gravou|gravado|carved|engraved|eingeritzt|geschnitzt|eingraviert)\\b[^.!?:]{0,30}:",
            // Someone of the opinion, not the speaker: "Mia nonna era dell'idea che …" (set 39)
            subjectThen(50) + "(?<!\\b(?i:we|wir|noi|nous|nós|nosotros)\\s)(?i:è|era|erano|sono|es|fue|son|eran|é|eram|são|est|"
                + "était|sont|étaient|ist|war|sind|waren|is|was|are|were)\\s+(?i:dell['’]idea|de la idea|da ideia|da opinião|"
                + "de la opinión|d['’]avis|de l['’]avis|der meinung|der ansicht|der überzeugung|of the opinion|of the view)\\b",
            // According to a manual, in Italian and French ("secondo" is also "second", "selon" also "depending on"):
            // "Secondo il manuale del decespugliatore il montaggio richiede dieci minuti; …" (set 39)
            "^\\P{L}*(?i:secondo|selon)\\s+(?i:il|la|lo|l['’]|le|i|gli|les)\\s*\(printedThing)\\b",
            // What an app or a forecast announces, set off: "Sole tutta la settimana, annuncia l'app del meteo, e io …"
            // (set 39)
            ",\\s*(?i:annuncia|annunciava|anuncia|anunciaba|anunciava|annonce|annonçait|verkündet|prophezeit|promette|"
                + "prometteva|promet|promettait|promete|prometía|prometia|verspricht|promises|announces|predicts)\\s+"
                + "(?:(?i:l['’]|la|il|lo|el|le|o|a|die|der|das|the|mon|ma|mi|il mio|la mia|my|meine|mein)\\s*)(?:\\p{L}+\\s+)?"
                + "(?:\(printedThing)|(?i:app|appli|meteo|météo|wetterbericht|wetter-app|forecast|previsión|previsione|"
                + "previsão|horoscope|oroscopo|horóscopo|horoskop))\\b",
        ].map { GatePattern($0) }
    }()

    private func checkSentences(_ text: String) -> GateResult {
        let count = QuoteText.sentences(text).count
        return count <= 1 ? .pass(.sentenceCount, score: Double(count))
            : .fail(.sentenceCount, "has \(count) sentences; one is required", score: Double(count))
    }

    /// A sentence of the six languages begins with a capital letter or a digit, after any opening
    /// marks ("¿", "¡", "«", "„"): a line whose first word is in lower case is the rest of a
    /// sentence the model began elsewhere ("snow of the year, a fitting description …", README.md,
    /// real-model eval). No labelled good line starts so. A line without letters or digits is
    /// `empty`'s to reject.
    private func checkSentenceStart(_ text: String) -> GateResult {
        guard let first = text.first(where: { $0.isLetter || $0.isNumber }), first.isLowercase else {
            return .pass(.sentenceStart)
        }
        return .fail(.sentenceStart, "does not begin a sentence: its first word is in lower case (\"\(text.prefix(24))…\")")
    }

    /// The rule the draft's pattern enforces while decoding (`SentenceEnd`): a line cut off at the
    /// token limit, or stopped mid-phrase, does not end its sentence.
    private func checkSentenceEnd(_ text: String, language: String?) -> GateResult {
        SentenceEnd.isComplete(text, language: language) ? .pass(.sentenceEnd)
            : .fail(.sentenceEnd, "does not end its sentence (with . ! or ?; an ellipsis trails off): \"…\(text.suffix(24))\"")
    }

    private func checkLength(_ text: String) -> GateResult {
        let count = QuoteText.words(text).count
        let score = Double(count)
        if count < Self.wordLimits.lowerBound {
            return .fail(.length, "has \(count) words; at least \(Self.wordLimits.lowerBound) are required", score: score)
        }
        if count > Self.wordLimits.upperBound {
            return .fail(.length, "has \(count) words; at most \(Self.wordLimits.upperBound) are allowed", score: score)
        }
        let note = Self.typicalWords.contains(count) ? nil : "outside the typical 10–16 words"
        return .pass(.length, score: score, note: note)
    }

    private func checkLanguage(_ text: String, expected: String) -> GateResult {
        guard SupportedLocale.languages.contains(expected) else {
            return .fail(.language, "locale \(expected) is not supported (supported: en, de, es, fr, it, pt)")
        }
        let guess: LanguageIdentifier.Guess
        do { guess = try identifier.identify(text) } catch {
            return .fail(.language, "the language cannot be checked: \(error)")
        }
        guard let detected = guess.language else {
            return .fail(.language, "the text has no letters to identify a language by", score: 0)
        }
        let lead = guess.lead(over: expected)
        if detected != expected, lead >= Self.languageConfidenceFloor {
            let written = detected == LanguageIdentifier.other
                ? "another language (closest profile: \(guess.closest ?? "none"))" : detected
            return .fail(.language, "written in \(written), expected \(expected)", score: lead)
        }
        let note = detected == expected ? nil : "closest language \(guess.closest ?? detected), too close to call against \(expected)"
        return .pass(.language, score: guess.confidence, note: note)
    }

    private func checkBanned(_ text: String, phrase: String) -> GateResult {
        if let character = text.first(where: { GateLexicon.bannedCharacters.contains($0) }) {
            return .fail(.bannedFragment, "contains the character \"\(character)\"")
        }
        if Self.link.matches(text) {
            return .fail(.bannedFragment, "contains a link")
        }
        if let fragment = GateLexicon.bannedFragments.map({ " \($0) " }).first(where: phrase.contains)
            ?? extraBannedFragments.first(where: phrase.contains) {
            return .fail(.bannedFragment, "contains the banned fragment \"\(fragment.trimmingCharacters(in: .whitespaces))\"")
        }
        return .pass(.bannedFragment)
    }

    static let link = GatePattern(#"(?i)https?://|www\."#)

    private func checkWords(_ text: String, language: String) -> GateResult {
        guard let vocabulary else { return .pass(.unknownWord, note: "not checked: no word lists given") }
        guard SupportedLocale.languages.contains(language) else {
            return .fail(.unknownWord, "locale \(language) is not supported (supported: en, de, es, fr, it, pt)")
        }
        do {
            if let word = try RealWords.firstUnknown(in: text, language: language, vocabulary: vocabulary) {
                return .fail(.unknownWord, "\"\(word)\" is not a word of \(language) (not in wordfreq's \(language) list, "
                             + "nor an inflection of a word in it)")
            }
        } catch {
            return .fail(.unknownWord, "the words cannot be checked: \(error)")
        }
        return .pass(.unknownWord)
    }

    private func checkDanglingWord(_ text: String, language: String) -> GateResult {
        guard let sentenceEnds else { return .pass(.danglingWord, note: "not checked: no sentence-end counts given") }
        guard SupportedLocale.languages.contains(language) else {
            return .fail(.danglingWord, "locale \(language) is not supported (supported: en, de, es, fr, it, pt)")
        }
        do {
            if let dangling = try DanglingWords.danglingLastWord(in: text, language: language, counts: sentenceEnds) {
                let count = dangling.count
                return .fail(.danglingWord, "ends on the dangling word \"\(dangling.word)\": it ends \(count.finals) of its "
                             + "\(count.occurrences) occurrences in the \(language) sentence counts, so the line stops mid-phrase",
                             score: Double(count.finals) / Double(count.occurrences))
            }
        } catch {
            return .fail(.danglingWord, "the last word cannot be checked: \(error)")
        }
        return .pass(.danglingWord)
    }

    private func checkCliches(_ phrase: String, language: String) -> GateResult {
        // Clichés of every language are checked: a translated formula is still a formula.
        let ordered = [language] + LanguageProfiles.languages.filter { $0 != language }
        for code in ordered {
            if let cliche = GateLexicon.cliches[code]?.first(where: { phrase.contains(" \($0) ") }) {
                return .fail(.cliche, "uses the cliché \"\(cliche)\" (\(code))")
            }
        }
        return .pass(.cliche)
    }
}
