/// The closed-class and structural parts of the distinctiveness score: abstract-noun endings,
/// formula shapes and person words. The open-class part (which words are specific) comes from
/// `WordFrequencies`, not from lists. Everything is matched on folded text (no accents, lower
/// case, apostrophes and hyphens as spaces).
enum DistinctivenessPatterns {
    /// Endings that make abstract nouns (-ness, -heit, -dad, -ité, -ità, -dade …); a word of at
    /// least 6 letters with one counts as an abstraction.
    static let abstractEndings: [String: [String]] = [
        "en": ["ness", "ity", "ance", "ence", "tion", "sion", "ment", "ism", "ship", "hood", "dom", "tude"],
        "de": ["heit", "keit", "ung", "schaft", "tum", "nis", "ismus", "ion", "tat"],
        "es": ["dad", "cion", "sion", "ncia", "mento", "ismo", "eza", "tud"],
        "fr": ["ite", "tion", "sion", "ance", "ence", "isme", "esse", "itude"],
        "it": ["ita", "zione", "sione", "nza", "ismo", "ezza", "itudine", "mento"],
        "pt": ["dade", "cao", "sao", "ncia", "mento", "ismo", "eza", "ude"],
    ]
    static let abstractMinimumLength = 6

    /// Formula shapes of motivational filler, in all six languages at once (a translated
    /// formula is still a formula). Regular expressions on " folded words ".
    static let formulas: [String] = [
        // A definition as the whole idea: "Happiness is …", "La vida es …", "Das Leben ist …".
        #"^ ((the|a|an|la|el|le|il|lo|o|as|os|los|las|les|i|gli|das|die|der|l) )?\w+ (is|are|ist|sind|es|son|est|sont|e|sono|sao) "#,
        // Every day / each moment is a chance.
        #" (every|each) (day|moment|morning|sunrise|step|challenge|setback|storm)s? "#,
        #" (jeder|jede|jedes|jeden) (tag|moment|morgen|schritt|sonnenaufgang|ruckschlag|herausforderung|krise|sturm) "#,
        #" cada (dia|momento|manana|amanecer|paso|desafio|caida|crisis|instante|nascer|queda|novo|nuevo|nueva|pequeno|crise) "#,
        #" (chaque|tous les) (jour|jours|moment|matin|lever|pas|defi|echec|crise|instant|nouveau|nouvelle|petit) "#,
        #" ogni (giorno|momento|mattina|alba|passo|sfida|caduta|crisi|istante|nuovo|nuova|piccolo) "#,
        #" (todos os dias|todo dia) "#,
        // Never (give up, stop, lose …).
        #" (never|niemals|nie|nunca|jamais|mai) "#,
        // Stronger than you think.
        #" than you (think|imagine|believe|feel) | als du (denkst|glaubst) | de lo que (crees|piensas|imaginas) "#
            + #"| que tu ne l(e)? (penses|crois|imagines) | di quanto (pensi|credi|immagini) | do que (imagina|pensa|acredita) "#,
        // Talking to one's self.
        #" (yourself|dich selbst|deiner selbst|ti mismo|toi meme|te stesso|se stesso|si mesmo|voce mesmo) "#,
        // The promise: if you believe …
        #" (if|when) you (only )?(believe|dream|trust|love)| wenn du (nur )?(an|fest)| si (de verdad )?crees "#
            + #"| si tu y crois | se ci credi | quando voce acredita "#,
        // In life, of life.
        #" (in|of) (life|your life) | (im|vom) leben | des lebens | (de|en) la vida | (de|dans) la vie "#
            + #"| (della|nella) vita | (da|na) vida "#,
        // Positive thinking.
        #" positi(v|ve|vo|va|vi|vos|vas|f|fs|ves)(ity)? | positividad | positivita | positivite | positividade "#,
        // Your + a big abstraction (dreams, heart, soul, potential, journey …).
        #" (your|deine|deinen|deinem|deiner|dein|tus|tu|ton|ta|tes|tuo|tua|tuoi|tue|seu|sua|seus|suas) "#
            + #"(dreams?|heart|soul|potential|journey|future|life|light|goals?|passion|purpose|destiny"#
            + #"|traume?|herz|herzen|seele|potenzial|zukunft|leben|licht|ziel|ziele|leidenschaft"#
            + #"|suenos?|corazon|alma|potencial|futuro|vida|luz|metas?|pasion|proposito|destino"#
            + #"|reves?|coeur|ame|avenir|vie|lumiere"#
            + #"|sogni|sogno|cuore|anima|potenziale|vita|obiettivi?|passione|scopo"#
            + #"|sonhos?|coracao|objetivos?|paixao|jornada) "#,
    ]

    /// Words by which a line addresses or names a person acting (I, you, we …).
    static let agents: [String: Set<String>] = [
        "en": ["i", "you", "we", "my", "your", "our"],
        "de": ["ich", "du", "wir", "mein", "dein", "unser", "deine", "meine"],
        "es": ["yo", "tu", "nosotros", "mi", "tus", "nuestro", "nuestra"],
        "fr": ["je", "j", "tu", "nous", "mon", "ma", "ton", "ta", "notre"],
        "it": ["io", "tu", "noi", "mio", "mia", "tuo", "tua", "nostro", "nostra"],
        "pt": ["eu", "tu", "voce", "nos", "meu", "minha", "teu", "tua", "seu", "sua", "nosso", "nossa"],
    ]
}
