/// Per language: one valid line and one draft for each defect the gates must catch (written for
/// these tests). `expectedGate` is the gate that must reject it.
struct RejectionFixture {
    let language: String
    let kind: String
    let text: String
    let expectedGate: GateName
}

@testable import QuoteLibrary

enum RejectionFixtures {
    /// A line that passes every gate, per language (the base the defects are made from).
    static let valid: [String: String] = [
        "en": "Carry the spare key to your neighbour before the evening rain reaches her porch.",
        "de": "Bring deiner Nachbarin den Ersatzschlüssel, bevor der Abendregen ihre Veranda erreicht.",
        "es": "Lleva la llave de repuesto a tu vecina antes de que la lluvia llegue a su porche.",
        "fr": "Porte la clé de secours à ta voisine avant que la pluie du soir atteigne son perron.",
        "it": "Porta la chiave di riserva alla tua vicina prima che la pioggia arrivi sul suo portico.",
        "pt": "Leva a chave reserva à tua vizinha antes que a chuva da tarde chegue à varanda.",
    ]

    /// Stored before the near-duplicate fixtures run.
    static let stored: [String: String] = [
        "en": "Fold the map along its old creases and let your sister choose the road.",
        "de": "Falte die Karte entlang der alten Knicke und lass deine Schwester den Weg wählen.",
        "es": "Dobla el mapa por sus viejos pliegues y deja que tu hermana elija el camino.",
        "fr": "Plie la carte le long de ses vieux plis et laisse ta sœur choisir la route.",
        "it": "Piega la mappa lungo le vecchie pieghe e lascia che tua sorella scelga la strada.",
        "pt": "Dobra o mapa pelas velhas dobras e deixa a tua irmã escolher a estrada.",
    ]

    static let nearDuplicates: [String: String] = [
        "en": "Fold the map along its old creases, and let your sister choose the road!",
        "de": "Falte die Karte entlang der alten Knicke und lass deine Schwester den Weg wählen!",
        "es": "Dobla el mapa por sus viejos pliegues, y deja que tu hermana elija el camino.",
        "fr": "Plie la carte le long de ses vieux plis, et laisse ta sœur choisir la route !",
        "it": "Piega la mappa lungo le vecchie pieghe, e lascia che tua sorella scelga la strada!",
        "pt": "Dobra o mapa pelas velhas dobras, e deixa a tua irmã escolher a estrada!",
    ]

    static let multiSentence: [String: String] = [
        "en": "The kettle is singing again. Pour two cups and call your brother home.",
        "de": "Der Wasserkessel pfeift schon wieder. Gieß zwei Tassen ein und ruf deinen Bruder an.",
        "es": "La tetera vuelve a silbar. Sirve dos tazas y llama a tu hermano.",
        "fr": "La bouilloire siffle encore. Verse deux tasses et appelle ton frère à la maison.",
        "it": "Il bollitore fischia di nuovo. Versa due tazze e chiama tuo fratello a casa.",
        "pt": "A chaleira está a apitar outra vez. Serve duas xícaras e chama o teu irmão.",
    ]

    static let tooLong: [String: String] = [
        "en": "When the last bus leaves the square and the bakery lights go out one by one, walk home slowly with your collar up and your pockets full of warm chestnuts.",
        "de": "Wenn der letzte Bus den Platz verlässt und die Lichter der Bäckerei eines nach dem anderen ausgehen, geh langsam nach Hause mit warmen Kastanien in den Taschen.",
        "es": "Cuando el último autobús sale de la plaza y las luces de la panadería se apagan una a una, vuelve despacio a casa con los bolsillos llenos de castañas calientes.",
        "fr": "Quand le dernier bus quitte la place et que les lumières de la boulangerie s'éteignent une à une, rentre lentement avec les poches pleines de châtaignes chaudes.",
        "it": "Quando l'ultimo autobus lascia la piazza e le luci del forno si spengono una dopo l'altra, torna a casa piano con le tasche piene di castagne calde.",
        "pt": "Quando o último autocarro deixa a praça e as luzes da padaria se apagam uma a uma, volta devagar para casa com os bolsos cheios de castanhas quentes.",
    ]

    static let cliche: [String: String] = [
        "en": "Every grey Monday at the office I whisper that you should follow your dreams.",
        "de": "An jedem grauen Montag im Büro gilt für uns der alte Satz, der Weg ist das Ziel.",
        "es": "En cada lunes gris de la oficina recuerdo que todo pasa por algo y sigo adelante.",
        "fr": "Chaque lundi gris au bureau, je me répète que tout arrive pour une raison et je continue.",
        "it": "Ogni lunedì grigio in ufficio mi ripeto che tutto succede per una ragione e vado avanti.",
        "pt": "Em cada segunda-feira cinzenta no escritório repito que tudo acontece por uma razão e sigo em frente.",
    ]

    /// Which other language's valid line stands in as "wrong language" for each locale.
    static let wrongLanguageSource = ["en": "de", "de": "en", "es": "fr", "fr": "es", "it": "pt", "pt": "it"]

    static var all: [RejectionFixture] {
        LanguageProfiles.languages.flatMap { language -> [RejectionFixture] in
            let base = valid[language]!
            return [
                RejectionFixture(language: language, kind: "empty", text: "   ", expectedGate: .empty),
                RejectionFixture(language: language, kind: "multi-sentence", text: multiSentence[language]!, expectedGate: .sentenceCount),
                RejectionFixture(language: language, kind: "too long", text: tooLong[language]!, expectedGate: .length),
                RejectionFixture(language: language, kind: "quoted", text: "“\(base)”", expectedGate: .wrappingQuotes),
                RejectionFixture(language: language, kind: "wrong language", text: valid[wrongLanguageSource[language]!]!,
                                 expectedGate: .language),
                RejectionFixture(language: language, kind: "cliché", text: cliche[language]!, expectedGate: .cliche),
                RejectionFixture(language: language, kind: "near-duplicate", text: nearDuplicates[language]!, expectedGate: .novelty),
                RejectionFixture(language: language, kind: "attributed", text: base + " — Ada Brightwater", expectedGate: .attribution),
            ]
        }
    }
}
