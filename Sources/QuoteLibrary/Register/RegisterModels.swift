/// Every embedding model's register model: one file each in `Models/`, written by
/// `scripts/register-model.py --write` with that model as the quote embedder.
enum RegisterModels {
    static let all: [RegisterModel] = [embeddinggemma300mQ8_0]
}
