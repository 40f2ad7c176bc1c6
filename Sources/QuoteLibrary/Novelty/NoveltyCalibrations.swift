/// Every embedding model's novelty calibration: one file each in `Calibrations/`, written by
/// `scripts/novelty-token-alignment.py --write` with that model as the quote embedder.
enum NoveltyCalibrations {
    static let all: [NoveltyCalibration] = [multilingualE5SmallQ4_0, embeddinggemma300mQ8_0]
}
