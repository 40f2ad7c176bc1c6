/// What the model check needs from an architecture: its hyperparameters, read and bounded from
/// the file's metadata, and the tensors a file of that shape must hold. An architecture plugs
/// into the check by conforming and being listed in `ModelCheck.architectures`.
public protocol ModelArchitecture: Sendable {
    /// The `general.architecture` values this type reads.
    static var architectureNames: [String] { get }

    /// Reads `<architecture>.*` metadata, refusing a file whose `general.architecture` is not
    /// one of `architectureNames`. Every count is checked non-zero and bounded, and every
    /// division exact, before anything is sized from it; an error names the key and what was
    /// expected.
    init(file: GGUFFile) throws(GGUFError)

    /// Every tensor the forward pass reads, with its dimensions; `vocabularySize` is the
    /// tokenizer's token count.
    func tensorLayout(vocabularySize: Int) -> [TensorSpec]
}

/// One tensor an architecture reads: its name, its dimensions (innermost first, as ggml and
/// `GGUFTensorInfo` order them) and whether a file may leave it out.
public struct TensorSpec: Sendable, Equatable {
    public let name: String
    public let dimensions: [Int]
    public let isOptional: Bool

    public init(_ name: String, _ dimensions: [Int], optional: Bool = false) {
        self.name = name
        self.dimensions = dimensions
        self.isOptional = optional
    }
}
