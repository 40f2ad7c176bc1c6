import Testing
@testable import QuoteLibrary

@Suite("Distinctiveness score")
struct DistinctivenessTests {
    /// Per language, lines in the order the score must rank them (best first): a concrete scene
    /// with someone acting and a named feeling; a concrete but passive image; a vague line with no image;
    /// a formula ("X is the key to …").
    static let orderings: [String: [String]] = [
        "en": ["Carry the spare key to Mrs. Ortiz and notice the relief when her porch light comes on.",
               "An old bicycle leans against the bakery window while the bread cools.",
               "Some days feel good and other days feel strange, and both are fine.",
               "Kindness is the key to happiness and success in every part of life."],
        "de": ["Bring der Nachbarin den Schlüssel und spür die Erleichterung, wenn ihre Lampe angeht.",
               "Ein altes Fahrrad lehnt am Fenster der Bäckerei, während das Brot abkühlt.",
               "Manche Tage fühlen sich gut an und andere seltsam, und beides ist in Ordnung.",
               "Freundlichkeit ist der Schlüssel zu Glück und Erfolg in jedem Leben."],
        "es": ["Lleva la llave a tu vecina y nota el alivio cuando se enciende su lámpara.",
               "Una bicicleta vieja descansa junto a la ventana de la panadería mientras el pan se enfría.",
               "Algunos días se sienten buenos y otros extraños, y los dos están bien.",
               "La bondad es la clave de la felicidad y del éxito en la vida."],
        "fr": ["Porte la clé à ta voisine et remarque le soulagement quand sa lampe s'allume.",
               "Un vieux vélo repose contre la fenêtre de la boulangerie pendant que le pain refroidit.",
               "Certains jours semblent bons et d'autres étranges, et les deux vont bien.",
               "La gentillesse est la clé du bonheur et du succès dans la vie."],
        "it": ["Porta la chiave alla tua vicina e nota il sollievo quando si accende la sua lampada.",
               "Una vecchia bicicletta riposa contro la finestra del forno mentre il pane si raffredda.",
               "Alcuni giorni sembrano buoni e altri strani, e vanno bene tutti e due.",
               "La gentilezza è la chiave della felicità e del successo nella vita."],
        "pt": ["Leva a chave à tua vizinha e repara no alívio quando a lâmpada dela acende.",
               "Uma bicicleta velha encosta na janela da padaria enquanto o pão esfria.",
               "Alguns dias parecem bons e outros estranhos, e os dois estão bem.",
               "A bondade é a chave da felicidade e do sucesso na vida."],
    ]

    @Test(arguments: ["en", "de", "es", "fr", "it", "pt"])
    func fixturesRankInTheExpectedOrderAndTheBestPasses(language: String) throws {
        let scorer = DistinctivenessScorer()
        let lines = try #require(Self.orderings[language])
        let scores = lines.map { scorer.score($0, locale: language).score }
        for index in 1..<scores.count {
            #expect(scores[index - 1] > scores[index], "\(language): \(lines[index - 1]) (\(scores[index - 1])) should outrank \(lines[index]) (\(scores[index]))")
        }
        #expect(scores[0] >= DistinctivenessScorer.acceptance, "\(language): best line scored \(scores[0])")
        #expect(scores[3] < DistinctivenessScorer.acceptance, "\(language): formula scored \(scores[3])")
    }

    @Test func featuresAreCountedAsDocumented() {
        let breakdown = DistinctivenessScorer().score(Self.orderings["en"]![0], locale: "en")
        #expect(breakdown.concrete >= 2 && breakdown.actions >= 1 && breakdown.specificEmotions == 1 && breakdown.agency)
        let formula = DistinctivenessScorer().score(Self.orderings["en"]![3], locale: "en")
        #expect(formula.formulas == 1 && formula.abstractions >= 2)
    }

    @Test func aDraftCloseToARecentRejectionIsPenalised() {
        let scorer = DistinctivenessScorer()
        let line = "Fold the warm blanket twice and leave it on the bench for the night nurse."
        let fresh = scorer.score(line, locale: "en", recentRejections: ["The tide keeps its own calendar of small shells."])
        let anchored = scorer.score(line, locale: "en",
                                    recentRejections: ["Fold the warm blanket twice and leave it on the bench for the nurse."])
        #expect(anchored.anchorSimilarity >= 0.8)
        #expect(fresh.score - anchored.score == 3)
    }

    @Test func scoreStaysWithinZeroToTen() {
        let scorer = DistinctivenessScorer()
        let crowded = "Carry bread, salt, a candle, a kettle, a lamp and a key while you sweep, mend and knock with relief."
        let empty = "Life is the key to success and the secret of happiness, everything and nothing."
        #expect((0...10).contains(scorer.score(crowded, locale: "en").score))
        #expect((0...10).contains(scorer.score(empty, locale: "en").score))
    }
}
