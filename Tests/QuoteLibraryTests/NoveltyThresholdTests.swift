import Testing
@testable import QuoteLibrary

/// What the 0.90 cosine threshold does with the built-in lexical embedder on labelled pairs:
/// light edits of a stored line (must be caught), true paraphrases in other words (a lexical
/// embedder cannot see these; measured, not required), and different lines on the same topic
/// (must never be caught).
@Suite("Novelty threshold on labelled pairs")
struct NoveltyThresholdTests {
    static let lightEdits: [(String, String)] = [
        ("Carry the spare key to your neighbour before the evening rain reaches her porch.",
         "Carry the spare key to your neighbour before the evening rain reaches her porch!"),
        ("Fold the warm blanket twice and leave it on the bench for the night nurse.",
         "Fold the warm blanket twice, and leave it on the bench for the night nurse."),
        ("Mend the torn sleeve tonight so your son can climb the oak tree tomorrow.",
         "mend the torn sleeve tonight so your son can climb the oak tree tomorrow"),
        ("Leave the porch light on so the late bus driver sees a friendly window.",
         "Leave the porch light on, so the late bus driver sees a friendly window."),
        ("Pour the last of the soup for the neighbour who shovelled your steps.",
         "Pour the last of the soup for the neighbour who shoveled your steps."),
        ("Bring deiner Nachbarin den Ersatzschlüssel, bevor der Abendregen ihre Veranda erreicht.",
         "Bring deiner Nachbarin den Ersatzschlüssel bevor der Abendregen ihre Veranda erreicht!"),
        ("Porte la clé de secours à ta voisine avant que la pluie du soir atteigne son perron.",
         "Porte la clé de secours à ta voisine, avant que la pluie du soir atteigne son perron !"),
        ("Lleva la llave de repuesto a tu vecina antes de que la lluvia llegue a su porche.",
         "¡Lleva la llave de repuesto a tu vecina antes de que la lluvia llegue a su porche!"),
    ]

    static let paraphrases: [(String, String)] = [
        ("Carry the spare key to your neighbour before the evening rain reaches her porch.",
         "Take your neighbour her extra key before tonight's shower gets to her front steps."),
        ("Fold the warm blanket twice and leave it on the bench for the night nurse.",
         "Leave a doubled-up cosy blanket on the bench for whoever nurses through the night."),
        ("Mend the torn sleeve tonight so your son can climb the oak tree tomorrow.",
         "Sew up the ripped arm of his shirt this evening, so tomorrow the boy can scale the oak."),
        ("Leave the porch light on so the late bus driver sees a friendly window.",
         "Keep the outside lamp burning so the driver of the last bus spots a welcoming house."),
        ("Pour the last of the soup for the neighbour who shovelled your steps.",
         "Give the final bowl of broth to the person next door who cleared the snow from your stairs."),
        ("Water your grandmother's geraniums while she tells you about the war.",
         "Tend to grandma's red flowers with the watering can as she recounts the war years."),
    ]

    static let differentLines: [(String, String)] = [
        ("Carry the spare key to your neighbour before the evening rain reaches her porch.",
         "Ask your neighbour for the spare ladder before the gutters fill with autumn leaves."),
        ("Fold the warm blanket twice and leave it on the bench for the night nurse.",
         "Fold the paper map twice and tuck it in the glove box for the long drive."),
        ("Mend the torn sleeve tonight so your son can climb the oak tree tomorrow.",
         "Mend the garden fence tonight so the neighbour's goat stays out of the lettuce."),
        ("Leave the porch light on so the late bus driver sees a friendly window.",
         "Leave the kitchen window open so the smell of bread reaches the bus stop."),
        ("Pour the last of the soup for the neighbour who shovelled your steps.",
         "Pour the last of the coffee for the colleague who stayed late with you."),
        ("Water your grandmother's geraniums while she tells you about the war.",
         "Water the tomatoes early while your father tells you about the harbour."),
        ("Bring deiner Nachbarin den Ersatzschlüssel, bevor der Abendregen ihre Veranda erreicht.",
         "Bring deinem Nachbarn die Leiter zurück, bevor der Herbstwind die Blätter verteilt."),
        ("Porte la clé de secours à ta voisine avant que la pluie du soir atteigne son perron.",
         "Porte la soupe chaude à ton voisin avant que la neige du soir bloque sa porte."),
    ]

    static func similarity(_ pair: (String, String)) -> Float {
        let embedder = LexicalEmbedder()
        return NoveltyGate.cosine(embedder.vector(pair.0), embedder.vector(pair.1))
    }

    @Test func thresholdCatchesLightEditsAndNeverDifferentLines() {
        let edits = Self.lightEdits.map(Self.similarity)
        let paraphrases = Self.paraphrases.map(Self.similarity)
        let different = Self.differentLines.map(Self.similarity)
        let caught = (edits + paraphrases).filter { $0 >= NoveltyCalibration.uncalibratedThreshold }.count
        let falsePositives = different.filter { $0 >= NoveltyCalibration.uncalibratedThreshold }.count
        let precision = caught + falsePositives == 0 ? 1 : Double(caught) / Double(caught + falsePositives)
        let recall = Double(caught) / Double(edits.count + paraphrases.count)
        print("lexical embedder at 0.90: precision \(precision), recall \(recall) (\(caught)/\(edits.count + paraphrases.count)); "
              + "light edits min \(edits.min()!), paraphrases max \(paraphrases.max()!), different lines max \(different.max()!)")
        #expect(edits.allSatisfy { $0 >= NoveltyCalibration.uncalibratedThreshold }, "light edits: \(edits)")
        #expect(falsePositives == 0, "different lines: \(different)")
    }
}
