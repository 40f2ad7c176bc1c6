/// Every embedding model's taste model: one file each in `Models/`, written by
/// `scripts/taste-model.py --write` with that model as the quote embedder.
enum TasteModels {
    static let all: [TasteModel] = [multilingualE5SmallQ4_0, embeddinggemma300mQ8_0]
}
