/// A model file checked before any of it is used: the container (by `GGUFFile`), then the
/// architecture's hyperparameters, the tokenizer, and every tensor's presence and shape. The
/// runner's load, its availability probe and `tandem-llama inspect` all come through here, so
/// they accept and refuse the same files with the same message.
public struct CheckedModel<Architecture: ModelArchitecture>: Sendable {
    public let file: GGUFFile
    public let hyperparameters: Architecture
    public let tokenizer: Architecture.ModelTokenizer
    /// The tensors of the architecture's layout that the file holds, by name, each of the
    /// expected shape.
    public let tensors: [String: GGUFTensorInfo]

    public init(file: GGUFFile) throws(GGUFError) {
        let path = file.path
        guard !file.tensors.isEmpty else {
            throw GGUFError(.noTensors, path: path, "the header lists no tensors; a model file needs its weights")
        }
        self.file = file
        // Refuses a file of another architecture, naming the ones it reads.
        hyperparameters = try Architecture(file: file)
        tokenizer = try Architecture.ModelTokenizer(checking: file)
        tensors = try Self.check(hyperparameters.tensorLayout(vocabularySize: tokenizer.vocabularySize), in: file)
    }

    private static func check(_ layout: [TensorSpec], in file: GGUFFile) throws(GGUFError) -> [String: GGUFTensorInfo] {
        var found: [String: GGUFTensorInfo] = [:]
        found.reserveCapacity(layout.count)
        for spec in layout {
            guard let info = file.tensor(named: spec.name) else {
                if spec.isOptional { continue }
                throw GGUFError(.missingTensor, path: file.path, "tensor \(spec.name) is missing, expected shape \(spec.expected)")
            }
            guard spec.fits(info.dimensions) else {
                throw GGUFError(.wrongTensorShape, path: file.path, "tensor \(spec.name) has shape \(info.dimensions), expected \(spec.expected)")
            }
            found[spec.name] = info
        }
        return found
    }

    /// A tensor of the layout the file holds (nil only for an optional one it leaves out).
    func tensor(_ name: String) -> GGUFTensorInfo? { tensors[name] }
}

extension Tokenizer: CheckedTokenizer {
    public convenience init(checking file: GGUFFile) throws(GGUFError) {
        do {
            try self.init(gguf: file)
        } catch let error as GGUFError {
            throw error
        } catch let error as TokenizerError {
            let code: GGUFError.Code = error.code == .unsupportedModel || error.code == .unsupportedPreTokenizer ? .unsupportedTokenizer : .invalidTokenizer
            throw GGUFError(code, path: file.path, error.message)
        } catch {
            throw GGUFError(.invalidTokenizer, path: file.path, "\(error)")
        }
    }

    public var kindName: String { kind.rawValue }
}

extension UnigramTokenizer: CheckedTokenizer {
    public init(checking file: GGUFFile) throws(GGUFError) { try self.init(gguf: file) }
    public var kindName: String { "t5" }
}

/// The architectures this engine runs, and the check for a file of any of them.
public enum ModelCheck {
    /// Each architecture the engine can run; `check` picks by `general.architecture`.
    static let architectures: [any ModelArchitecture.Type] = [LlamaHyperparameters.self, EncoderHyperparameters.self]

    /// What a successful check found, for `tandem-llama inspect`.
    public struct Summary: Sendable {
        public let architecture: String
        public let tokenizerKind: String
        public let vocabularySize: Int
        public let checkedTensors: Int
    }

    /// Checks a file of any supported architecture, as the loader of that architecture does.
    public static func check(_ file: GGUFFile) throws(GGUFError) -> Summary {
        let name = try file.string("general.architecture")
        // A file of no supported architecture gets the first loader's refusal, as a load of it would.
        let architecture = architectures.first { name.map($0.architectureNames.contains) ?? false } ?? architectures[0]
        return try summary(file, architecture)
    }

    private static func summary<A: ModelArchitecture>(_ file: GGUFFile, _: A.Type) throws(GGUFError) -> Summary {
        let checked = try CheckedModel<A>(file: file)
        return Summary(
            architecture: try file.string("general.architecture") ?? "",
            tokenizerKind: checked.tokenizer.kindName, vocabularySize: checked.tokenizer.vocabularySize,
            checkedTensors: checked.tensors.count)
    }
}
