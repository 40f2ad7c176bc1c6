/// Talk about the exchange instead of (or beside) the line: what a chat model says to the person
/// who asked, in any of the six languages (Sources/QuoteLibrary/README.md, "Prompt leftovers").
///
/// Not a list of whole phrases: small closed classes of words, and the ways they combine. A line
/// of the product speaks of kettles and neighbours; talk about the exchange speaks of the text
/// itself ("quote", "Satz", "frase"), of the request ("topic", "tono", "richiesta"), of the
/// speaker as its writer ("I'll write", "escribiré", "je vais") or of the reader as the one served
/// ("I hope", "se quiser", "für dich"). One class alone is no evidence ("I can hear the sea",
/// "my grandmother's favourite phrase"); these are:
///
/// - the model speaking as a model ("as an AI", "come modello linguistico");
/// - a word count ("under eighteen words", "Wortanzahl");
/// - the text pointed at ("this sentence", "cette phrase", "frase del día");
/// - a description of the line instead of the line ("A warm line about the harbour …");
/// - the text or the request together with the writer or the reader ("I can't write a quote …",
///   "Leider kann ich keinen Spruch für dich …"), or the text together with the request ("la
///   frase rispetta i vincoli"), or a reference to the request ("as requested");
/// - the craft of writing (a tense, an adjective, the second person) with the writer or the reader
///   ("I kept it in the present tense …", "Ho scelto il presente …"; with the text alone it may be a
///   teacher's lesson: "… qu'un adjectif de trop gâche une bonne phrase");
/// - the text weighed against an earlier attempt ("Compared with the first draft, …");
/// - a word quoted and weighed or chosen ("I went with "launderette" rather than "laundromat" …"; a
///   quoted title beside "I'll" is a song's: "In "Harbour Lights", the singer promises, "I'll …"").
/// - beside a line, a sentence addressed to the reader ("… I hope this inspires you!").
enum ExchangeTalk {
    /// Why `text` is talk about the exchange, or nil.
    static func reason(in text: String) -> String? {
        let sentences = QuoteText.sentences(text)
        // "Great question! …", "Avec plaisir ! …", "Fico feliz em ajudar! …": a short exclamation
        // before the rest is a reply's opening, not part of a line.
        if sentences.count > 1, let first = sentences.first, first.hasSuffix("!"), QuoteText.words(first).count <= 4 {
            return "opens with a reply (\"\(first)\")"
        }
        for sentence in sentences {
            let key = QuoteText.phraseKey(sentence)
            let tokens = key.split(separator: " ").map(String.init)
            if let cue = Lexicon.selfReferences.first(where: { key.contains(" \($0) ") }) {
                return "speaks as a model (\"\(cue)\")"
            }
            if let count = wordCount(tokens, key: key) { return "mentions a word count (\"\(count)\")" }
            if let pointer = pointedText(tokens, key: key) { return "points at the text itself (\"\(pointer)\")" }
            if let noun = describedText(tokens) { return "describes the line (\"\(noun) …\") instead of being it" }
            if let cue = Lexicon.requestReferences.first(where: { key.contains(" \($0) ") }) {
                return "refers to the request (\"\(cue)\")"
            }
            let text = tokens.first(where: Lexicon.textNouns.contains)
            let request = tokens.first(where: Lexicon.requestNouns.contains)
            let writer = Lexicon.writerCues.first(where: { key.contains(" \($0) ") })
            let choice = Lexicon.choiceCues.first(where: { key.contains(" \($0) ") })
            let reader = Lexicon.readerCues.first(where: { key.contains(" \($0) ") })
            if let subject = text ?? request, let cue = writer ?? reader ?? choice {
                return "talks about the \(text != nil ? "text" : "request") (\"\(subject)\") with the user (\"\(cue)\")"
            }
            if let text, let request { return "talks about the text (\"\(text)\") and the request (\"\(request)\")" }
            if let craft = Lexicon.craftTerms.first(where: { key.contains(" \($0) ") }), let cue = writer ?? reader ?? choice {
                return "talks about the writing (\"\(craft)\") with \"\(cue)\""
            }
            if let text, let cue = Lexicon.revisionCues.first(where: { key.contains(" \($0) ") }) {
                return "weighs the text (\"\(text)\") against another attempt (\"\(cue)\")"
            }
            if quotedWord.matches(sentence), let cue = choice ?? Lexicon.contrastCues.first(where: { key.contains(" \($0) ") }) {
                return "weighs a quoted word (\"\(cue)\")"
            }
            if sentences.count > 1, let cue = reader ?? writer {
                return "addresses the user (\"\(cue)\") beside the line"
            }
        }
        return nil
    }

    /// One to three words between quotation marks: a word quoted to be weighed, not a line's
    /// speech, which runs longer ("She wrote «gracias» in the steam" has no cue beside it).
    private static let quotedWord = GatePattern(#"[«"“„‚‘]\s*[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2}\s*[»"”“‘’]"#)

    /// "eighteen words", "12 palabras", "word count", "Wortanzahl": a number of 5 to 30 right
    /// before a word for words ("three kind words" is a line's business).
    private static func wordCount(_ tokens: [String], key: String) -> String? {
        if let phrase = Lexicon.wordCountPhrases.first(where: { key.contains(" \($0) ") }) { return phrase }
        for (index, token) in tokens.enumerated().dropFirst() where Lexicon.wordsNouns.contains(token) {
            let before = tokens[index - 1]
            if let number = Int(before), (5...30).contains(number) { return "\(before) \(token)" }
            if Lexicon.countNumbers.contains(before) { return "\(before) \(token)" }
        }
        return nil
    }

    /// "this sentence", "esta frase", "frase del giorno": the text pointed at, or named as the
    /// day's.
    private static func pointedText(_ tokens: [String], key: String) -> String? {
        for (index, token) in tokens.enumerated().dropFirst() where Lexicon.textNouns.contains(token) {
            if Lexicon.demonstratives.contains(tokens[index - 1]) { return "\(tokens[index - 1]) \(token)" }
        }
        return Lexicon.ofTheDay.first(where: { key.contains(" \($0) ") })
    }

    /// A sentence that begins by naming the text ("An original line about …", "Satz zum Thema …",
    /// "Escreva uma frase calorosa sobre …"): a word for the text among its first five words and a
    /// word for "about" at most five words after it.
    private static func describedText(_ tokens: [String]) -> String? {
        for index in tokens.indices.prefix(5) where Lexicon.textNouns.contains(tokens[index]) || Lexicon.lineNouns.contains(tokens[index]) {
            if tokens[(index + 1)...].prefix(5).contains(where: Lexicon.aboutWords.contains) { return tokens[index] }
        }
        return nil
    }

    /// The word classes, normalised as `QuoteText.phraseKey` leaves them (lower case, accents
    /// folded, apostrophes as spaces); phrases are matched as whole words.
    enum Lexicon {
        /// Words for the text the model was asked for. Words for "line" are not among them ("a
        /// line of washing"); they count only where a sentence begins by describing the text.
        static let textNouns: Set<String> = [
            "quote", "quotes", "quotation", "sentence", "sentences", "phrase", "phrases", "motto", "version", "versions",
            "variant", "variants", "option", "options", "wording",
            "zitat", "zitate", "satz", "satze", "spruch", "spruche", "vorschlag", "vorschlage", "variante", "varianten",
            "versionen", "formulierung",
            "cita", "citas", "frase", "frases", "oracion", "oraciones", "version", "versiones", "opcion", "opciones",
            "propuesta", "propuestas", "variantes",
            "citation", "citations", "proposition", "propositions",
            "citazione", "citazioni", "opzione", "opzioni", "frasi", "versione", "versioni", "proposta", "proposte", "varianti",
            "citacao", "citacoes", "versao", "versoes", "opcao", "opcoes", "sugestao", "sugestoes", "propostas",
            // drafts (set 29)
            "draft", "drafts", "entwurf", "fassung", "borrador", "brouillon", "bozza", "rascunho",
        ]
        static let lineNouns: Set<String> = ["line", "zeile", "linea", "ligne", "riga", "linha"]
        /// Words for the request and its terms.
        static let requestNouns: Set<String> = [
            "request", "topic", "tone", "constraint", "constraints", "instructions",
            "anfrage", "thema", "vorgabe", "vorgaben",
            "peticion", "pedido", "tema", "tono", "consigna", "requisitos",
            "demande", "sujet", "theme", "contrainte", "contraintes", "consigne",
            "richiesta", "argomento", "vincolo", "vincoli",
            "assunto", "tom",
        ]
        /// The speaker as the one who writes, offers or is there to help.
        static let writerCues: [String] = [
            "i ll", "i will", "i would", "i can", "i could", "i cannot", "i can t", "i chose", "i ve written", "let me",
            "i m here", "i tried", "i have written", "understood",
            "ich kann", "kann ich", "soll ich", "ich habe", "ich werde", "ich wurde", "ich schreibe", "ich bin hier", "verstanden",
            "puedo", "escribire", "escribiria", "voy a", "te dejo", "elegi", "he elegido", "he escrito", "estoy aqui", "entendido",
            "je vais", "je peux", "je ne peux", "j ai", "je propose", "je vous", "je te", "j ecris", "j ecrirais", "je suis la",
            "posso", "ho scelto", "ho controllato", "riformulo", "scrivo", "provero", "sono qui", "ti propongo", "ne scriva",
            "vou", "inventei", "escolhi", "escrevi", "criei", "tentei", "estou aqui", "entendi",
            "i suggest", "i d suggest", "ich schlage", "ich wurde vorschlagen", "sugiero", "sugeriria", "je suggere",
            "je suggererais", "suggerisco", "suggerirei", "sugiro",
        ]
        /// The writer's choices of words, tense or detail (set 29): beside the text, the craft of
        /// writing or a quoted word, not alone ("I kept the receipt").
        static let choiceCues: [String] = [
            "i went with", "i kept", "i ve kept", "i left out", "i dropped", "i avoided", "i replaced", "i changed", "i swapped",
            "i used", "i ve used", "i opted", "i preferred", "i removed", "habe ich", "ich hab",
            "he usado", "preferi", "mantengo", "mantuve", "he mantenido", "he evitado", "evite", "he cambiado", "cambie",
            "deje fuera", "dejo fuera", "opte", "je n ai", "ho tolto", "ho evitato", "ho lasciato", "ho cambiato", "ho usato",
            "ho preferito", "ho puntato", "ho cercato", "ho tenuto", "tirei", "usei", "mantive", "deixei", "reescrevi", "optei",
            "evitei", "troquei", "mudei", "nao inclui", "reformulei", "j ai remplace", "j ai prefere", "j ai hesite",
            "j ai garde", "j ai evite", "j ai choisi", "j ai retire", "gestrichen", "gewahlt", "ersetzt",
        ]
        /// The reader as the one served: hopes, offers, questions back, thanks.
        static let readerCues: [String] = [
            "i hope", "hope you", "hope this", "let me know", "if you want", "if you d like", "if you like", "would you like",
            "do you want", "want me to", "shall i", "should i", "you prefer", "for you", "feel free", "thanks for", "thank you for",
            "help you",
            "ich hoffe", "hoffe ich", "viel spass", "mochtest du", "mochten sie", "wenn du willst", "gefallt dir", "gefallt ihnen",
            "fur dich", "fur sie", "danke fur", "helfen",
            "espero que", "si quieres", "quieres que", "te guste", "para ti", "te gustaria", "gracias por", "ayudarte",
            "j espere", "n hesitez pas", "souhaitez vous", "voulez vous", "si vous voulez", "si tu veux", "veux tu", "pour vous",
            "pour toi", "vous plaise", "te plaise", "merci pour", "vous aider", "t aider",
            "spero che", "spero ti", "vuoi che", "se vuoi", "ti piaccia", "per te", "preferisci", "ti ispiri", "grazie per",
            "aiutarti",
            "se quiser", "quer que", "gostou", "para voce", "voce prefere", "obrigado por", "obrigada por", "te ajudar",
            "ajudar voce",
        ]
        /// Apologies: a reply's, never a line's opening before a colon.
        static let apologies: [String] = [
            "sorry", "apologies", "i apologize", "i apologise", "entschuldigung", "tut mir leid", "leider", "lo siento",
            "perdon", "disculpa", "disculpe", "desole", "desolee", "pardon", "mi scuso", "scusa", "scusami", "mi dispiace",
            "desculpe", "desculpa", "lamento", "perdao",
        ]
        /// The reader named as a pronoun: you, du, vous (a lead-in before a colon that names the
        /// reader is talk). Not the possessives ("your", "tua"): advice names the reader's things
        /// before its reason ("Aprende o nome da tua peixeira: …"; set 14 of eval/drafts); nor German
        /// "dir" and "dich", the reflexive of advice ("Kauf dir einen guten Regenschirm, keinen
        /// billigen: …"; set 16). Spanish "tu" is both, and stays.
        static let readerWords: Set<String> = [
            "you", "du", "ihnen", "tu", "ti", "usted", "vous", "toi", "voce", "voces",
        ]
        /// The model speaking as a model.
        static let selfReferences: [String] = [
            "as an ai", "as a language model", "language model", "artificial intelligence", "i m an ai", "i am an ai",
            "als ki", "sprachmodell", "kunstliche intelligenz",
            "como ia", "como una ia", "modelo de lenguaje", "inteligencia artificial",
            "en tant qu ia", "modele de langage", "intelligence artificielle",
            "come ia", "modello linguistico", "intelligenza artificiale",
            "como uma ia", "modelo de linguagem",
        ]
        /// References to the request itself.
        static let requestReferences: [String] = [
            "as requested", "as you asked", "wie gewunscht", "wie gewunscht", "como pediste", "como me pediste",
            "como solicitaste", "comme demande", "come richiesto", "come mi hai chiesto", "como voce pediu", "como pedido",
            "como solicitado",
        ]
        /// The craft of writing: tenses, parts of speech, grammatical persons, style. A line may tell
        /// a story "in the present tense"; only beside the writer, the reader or a writer's choice is it
        /// talk.
        static let craftTerms: [String] = [
            "present tense", "past tense", "future tense", "adjective", "adjectives", "adverb", "adverbs", "metaphor",
            "metaphors", "simile", "phrasing", "punctuation", "second person", "first person", "third person", "word choice",
            "prasens", "prateritum", "vergangenheitsform", "gegenwartsform", "zeitform", "adjektiv", "adjektive", "metapher",
            "ich form", "ich-form", "du form", "du-form", "zweiten person", "ersten person", "wortwahl",
            "tiempo verbal", "presente", "en pasado", "adjetivo", "adjetivos", "adverbio", "metafora", "segunda persona",
            "primera persona", "tercera persona", "puntuacion",
            "au present", "au passe", "passe compose", "imparfait", "adjectif", "adjectifs", "adverbe", "metaphore",
            "tutoiement", "vouvoiement", "deuxieme personne", "premiere personne", "ponctuation",
            "al passato", "imperfetto", "passato prossimo", "passato remoto", "aggettivo", "aggettivi", "avverbio",
            "seconda persona", "prima persona", "punteggiatura", "corsivo",
            "no passado", "presente do indicativo", "preterito", "segunda pessoa", "primeira pessoa", "pontuacao",
        ]
        /// Another attempt the text is weighed against.
        static let revisionCues: [String] = [
            "compared", "comparing", "previous", "earlier", "vergleich", "vorige", "vorigen", "vorherige", "von vorhin",
            "comparacion", "comparado", "comparada", "anterior", "de antes", "par rapport", "precedente", "precedent",
            "d avant", "rispetto", "di prima", "comparacao", "em relacao", "da primeira",
        ]
        /// Words that set one word against another.
        static let contrastCues: [String] = [
            "instead of", "rather than", "statt", "anstatt", "anstelle", "en vez de", "en lugar de", "plutot que",
            "a la place de", "invece di", "anziche", "piuttosto che", "em vez de", "em lugar de", "no lugar de",
            // a word taken out (set 33: "The word "quaint" is gone now, since …")
            "is gone", "ist weg", "ha desaparecido", "a disparu", "e sparito", "desapareceu",
        ]
        static let demonstratives: Set<String> = [
            "this", "these", "diese", "dieser", "dieses", "diesen", "esta", "este", "estas", "estos", "cette", "ces",
            "questa", "questo", "queste", "questi", "essa", "esse", "essas", "esses",
        ]
        static let ofTheDay: [String] = [
            "quote of the day", "zitat des tages", "spruch des tages", "satz des tages", "frase del dia", "cita del dia",
            "citation du jour", "pensee du jour", "phrase du jour", "frase del giorno", "citazione del giorno", "frase do dia",
            "citacao do dia", "line of the day", "thought of the day", "zeile des tages", "gedanke des tages",
            "linea del dia", "pensamiento del dia", "ligne du jour", "riga del giorno", "pensiero del giorno", "linha do dia",
            "pensamento do dia", "today s line", "today s quote", "linea de hoy", "frase de hoy", "ligne d aujourd hui",
            "frase di oggi", "frase de hoje", "linha de hoje", "zeile fur heute",
            // (set 35: "Tageszeile – …", "Riga di oggi, seconda bozza – …")
            "tageszeile", "tagesspruch", "tageszitat", "riga di oggi", "linea di oggi",
        ]
        static let aboutWords: Set<String> = [
            "about", "uber", "zum", "zur", "sobre", "acerca", "sur", "su", "sul", "sulla", "sullo", "sui", "sulle",
        ]
        static let wordsNouns: Set<String> = ["words", "worter", "palabras", "mots", "parole", "palavras"]
        static let wordCountPhrases: [String] = [
            "word count", "word limit", "wortanzahl", "wortzahl", "recuento de palabras", "numero de palabras",
            "limite de palabras", "nombre de mots", "limite de mots", "numero di parole", "limite di parole",
            "conteggio delle parole", "contagem de palavras", "numero de palavras", "limite de palavras",
        ]
        /// Numbers of 5 to 30 written as words, and the words of "at most"/"under" before a count.
        static let countNumbers: Set<String> = [
            "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
            "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
            "funf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwolf", "dreizehn", "vierzehn", "funfzehn",
            "sechzehn", "siebzehn", "achtzehn", "neunzehn", "zwanzig",
            "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce", "trece", "catorce", "quince",
            "dieciseis", "diecisiete", "dieciocho", "diecinueve", "veinte",
            "cinq", "sept", "huit", "neuf", "dix", "onze", "douze", "treize", "quatorze", "quinze", "seize",
            "dix-sept", "dix-huit", "vingt",
            "sei", "sette", "otto", "nove", "dieci", "undici", "dodici", "tredici", "quattordici", "quindici",
            "sedici", "diciassette", "diciotto", "diciannove", "venti",
            "sete", "oito", "dez", "treze", "quatorze", "catorze", "dezesseis", "dezessete", "dezoito", "dezenove", "vinte",
        ]
    }
}
