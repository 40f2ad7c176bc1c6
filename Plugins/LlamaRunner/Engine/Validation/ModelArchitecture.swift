/// What the model check needs from an architecture: its hyperparameters, read and bounded from
/// the file's metadata, and the tensors a file of that shape must hold. An architecture plugs
/// into the check by conforming and being listed in `ModelCheck.architectures`.
public protocol ModelArchitecture: Sendable {
    /// The tokenizer a file of this architecture carries.
    associatedtype ModelTokenizer: CheckedTokenizer

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

/// A tokenizer the model check reads from a file, its errors the file's (naming the key).
public protocol CheckedTokenizer: Sendable {
    init(checking file: GGUFFile) throws(GGUFError)
    var vocabularySize: Int { get }
    /// The `tokenizer.ggml.model` kind, for `tandem-llama inspect`.
    var kindName: String { get }
}

/// One tensor an architecture reads: its name, its dimensions (innermost first, as ggml and
/// `GGUFTensorInfo` order them) and whether a file may leave it out. With `rowsAtLeast` the
/// last dimension is a minimum (a table the forward pass reads only the first rows of).
public struct TensorSpec: Sendable, Equatable {
    public let name: String
    public let dimensions: [Int]
    public let isOptional: Bool
    public let rowsAtLeast: Bool

    public init(_ name: String, _ dimensions: [Int], optional: Bool = false, rowsAtLeast: Bool = false) {
        self.name = name
        self.dimensions = dimensions
        self.isOptional = optional
        self.rowsAtLeast = rowsAtLeast
    }

    /// Whether a tensor of `actual` dimensions has this shape.
    func fits(_ actual: [Int]) -> Bool {
        guard rowsAtLeast, let rows = dimensions.last else { return actual == dimensions }
        return actual.count == dimensions.count && actual.dropLast() == dimensions.dropLast() && actual.last! >= rows
    }

    /// The shape expected, as error messages print it.
    var expected: String {
        guard rowsAtLeast, let rows = dimensions.last else { return "\(dimensions)" }
        return "[" + (dimensions.dropLast().map(String.init) + ["≥ \(rows)"]).joined(separator: ", ") + "]"
    }
}
