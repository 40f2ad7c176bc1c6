/// Fixed phrase lists for the deterministic gate. Clichés and fragments are matched on the
/// normalised text (case and accents folded, punctuation dropped), so list them that way.
enum GateLexicon {
    /// Pieces of our own draft prompt or of chat templates that a model sometimes echoes.
    static let promptFragments: [String] = [
        "one original sentence", "one sentence", "original sentence", "no attribution", "no hashtags", "no emoji",
        "no markdown", "wrapping quotes", "at most 18", "10 16 words", "10 to 16 words", "here is a quote",
        "here is your quote", "here is a sentence", "here s a quote", "here s your", "sure here", "certainly here",
        "quote for you", "im start", "im end", "endoftext", "system prompt",
        "hier ist ein zitat", "hier ist ein satz", "ein satz mit", "aqui tienes", "aqui esta una frase", "una frase original",
        "voici une citation", "voici une phrase", "une phrase originale", "ecco una frase", "ecco una citazione",
        "una frase originale", "aqui esta uma frase", "aqui esta uma citacao", "uma frase original",
    ]

    /// Openers that present a text rather than being one (normalised: accents folded,
    /// apostrophes as spaces).
    static let presentationalOpeners: [String] = [
        "here is", "here s", "here are", "here comes", "below is", "hier ist", "hier kommt", "hier sind",
        "aqui tienes", "aqui esta", "aqui va", "ahi va", "te dejo", "voici", "voila", "je te propose",
        "je vous propose", "ecco", "eccoti", "ti propongo", "aqui esta", "aqui vai", "aqui tens", "segue",
        "here goes", "hier ein", "hier eine", "hier noch", "la vai", "alla va", "et voila", "eccola", "eccolo", "aqui estao",
    ]

    /// Refusals and placeholders: never quote material. Operators can add more. (A model speaking
    /// as a model is `ExchangeTalk`'s, under promptFragment.)
    static let bannedFragments: [String] = [
        "i cannot help with", "i can t help with", "i m not able to", "i cannot provide",
        "i cannot create", "lorem ipsum", "placeholder", "insert quote", "your quote here",
        "no puedo ayudar", "je ne peux pas vous aider", "non posso aiutarti", "nao posso ajudar",
    ]

    /// Characters that never belong in a quote line (markup, code, links).
    static let bannedCharacters: Set<Character> = ["[", "]", "{", "}", "<", ">", "|", "\\", "@"]

    /// Worn-out motivational formulas, per language.
    static let cliches: [String: [String]] = [
        "en": ["follow your dreams", "follow your heart", "believe in yourself", "never give up", "everything happens for a reason",
               "live laugh love", "the sky is the limit", "sky s the limit", "reach for the stars", "dance like nobody",
               "at the end of the day", "journey of a thousand miles", "life is a journey", "one day at a time",
               "the best is yet to come", "you only live once", "dream big", "stay positive", "good vibes",
               "be the change", "step out of your comfort zone", "everything you ve ever wanted",
               "what doesn t kill you", "when life gives you lemons", "shine bright"],
        "de": ["folge deinen traumen", "folge deinem herzen", "glaub an dich", "glaube an dich", "gib niemals auf",
               "gib nie auf", "alles geschieht aus einem grund", "der weg ist das ziel", "lebe deinen traum",
               "der himmel ist die grenze", "traume gross", "am ende des tages", "ein schritt nach dem anderen",
               "das beste kommt noch", "man lebt nur einmal", "raus aus der komfortzone"],
        "es": ["sigue tus suenos", "sigue tu corazon", "cree en ti", "nunca te rindas", "todo pasa por algo",
               "todo sucede por una razon", "el cielo es el limite", "vive tu sueno", "suena en grande", "al final del dia",
               "un dia a la vez", "lo mejor esta por venir", "solo se vive una vez", "sal de tu zona de confort",
               "la vida es un viaje"],
        "fr": ["suis tes reves", "suis ton coeur", "crois en toi", "n abandonne jamais", "ne jamais abandonner",
               "tout arrive pour une raison", "le ciel est la limite", "vis ton reve", "reve grand", "a la fin de la journee",
               "un jour a la fois", "le meilleur reste a venir", "on ne vit qu une fois", "sors de ta zone de confort",
               "la vie est un voyage", "la vie est belle"],
        "it": ["segui i tuoi sogni", "segui il tuo cuore", "credi in te stesso", "credi in te", "non arrenderti mai",
               "mai arrendersi", "tutto succede per una ragione", "tutto accade per un motivo", "il cielo e il limite",
               "vivi il tuo sogno", "sogna in grande", "alla fine della giornata", "un giorno alla volta",
               "il meglio deve ancora venire", "si vive una volta sola", "esci dalla tua zona di comfort",
               "la vita e un viaggio"],
        "pt": ["siga seus sonhos", "siga os seus sonhos", "siga seu coracao", "acredite em voce", "nunca desista",
               "tudo acontece por uma razao", "tudo acontece por um motivo", "o ceu e o limite", "viva seu sonho",
               "sonhe grande", "no fim do dia", "um dia de cada vez", "o melhor ainda esta por vir", "so se vive uma vez",
               "saia da sua zona de conforto", "a vida e uma viagem"],
    ]
}
