/// The 64-bit FNV-1a hash of a text's UTF-8 bytes: the same on every run and platform (Swift's
/// `Hasher` is seeded per process), so what it decides is reproducible: the labelled lines' split
/// (`LabelledLines`), the lexical embedder's buckets and the quote of the day.
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3

    static func hash(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}
