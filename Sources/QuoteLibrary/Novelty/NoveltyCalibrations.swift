// Written by scripts/novelty-token-alignment.py --write; do not edit by hand (run the script again).
enum NoveltyCalibrations {
    static let all: [NoveltyCalibration] = [
        NoveltyCalibration(model: "multilingual-e5-small-q4_0", threshold: 0.939552,
                           paraphrase: ParaphraseDecision(weights: [63.520830, -15.423347, 1.117335], bias: -56.612220, cutoff: 1.612925),
                           heldOutNearDuplicatesCaught: 1.0000, heldOutParaphrasesCaught: 0.2526,
                           heldOutFalseAlarms: 0.0368, heldOutPairs: 570),
    ]
}
