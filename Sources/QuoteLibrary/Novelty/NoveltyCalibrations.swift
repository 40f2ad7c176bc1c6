// Written by scripts/novelty-calibration.py --write; do not edit by hand (run the script again).
enum NoveltyCalibrations {
    static let all: [NoveltyCalibration] = [
        NoveltyCalibration(model: "multilingual-e5-small-q4_0", threshold: 0.943156,
                           heldOutNearDuplicatesCaught: 1.0000, heldOutParaphrasesCaught: 0.1000,
                           heldOutFalseAlarms: 0.0000, heldOutPairs: 210),
    ]
}
