/// The model's tensors, as the model check found them (present, of the expected shape).
/// Matrices stay in the mapping (with packed copies for the AVX-512 VNNI kernels); only the
/// small norm vectors are converted to float.
struct LlamaWeights: @unchecked Sendable {
    struct Layer {
        let attentionNorm: [Float]
        let query, key, value, attentionOutput: WeightMatrix
        let queryBias, keyBias, valueBias: [Float]?
        /// Per-head RMSNorm weights of queries and keys (headDim each), when the architecture has them.
        let queryNorm, keyNorm: [Float]?
        /// RMSNorm weights applied to the attention and feed-forward outputs, when the architecture has them.
        let postAttentionNorm, postFeedForwardNorm: [Float]?
        let ffnNorm: [Float]
        let gate, up, down: WeightMatrix
    }

    let tokenEmbedding: WeightMatrix
    let layers: [Layer]
    let outputNorm: [Float]
    /// `output.weight`, or the token embedding when the file ties them.
    let output: WeightMatrix
    /// A sentence encoder's projections after the pooling (`LlamaHyperparameters.projectionTensors`).
    let projections: [WeightMatrix]
    /// Owns the matrices' packed copies (`WeightMatrix.packed`).
    private let packedWeights = WeightMatrix.PackedWeights()

    init(_ checked: CheckedModel<LlamaHyperparameters>) {
        let file = checked.file
        let packedWeights = packedWeights
        let hp = checked.hyperparameters
        // A sentence encoder runs every matrix over whole texts only, where the batched product
        // would otherwise rearrange each Q8_0 panel on every call (Engine README, "Packed panels").
        let packedTypes = hp.traits.sentenceEncoder ? WeightMatrix.PackedWeights.modelTypes.union([.q8_0])
            : WeightMatrix.PackedWeights.modelTypes
        func unpacked(_ name: String) -> WeightMatrix { WeightMatrix(file: file, info: checked.tensor(name)!) }
        func matrix(_ name: String) -> WeightMatrix { packedWeights.pack(unpacked(name), types: packedTypes) }
        func vector(_ name: String) -> [Float]? {
            guard let info = checked.tensor(name) else { return nil }
            var v = [Float](repeating: 0, count: info.elementCount)
            v.withUnsafeMutableBufferPointer { Dequantize.row(info.type, file.data(of: info), count: info.elementCount, into: $0.baseAddress!) }
            return v
        }
        typealias T = LlamaHyperparameters.LayerTensor
        /// Consecutive row ranges of one fused tensor, each a matrix of its own.
        func parts(_ name: String, _ sizes: [(String, Int)]) -> [WeightMatrix] {
            let fused = WeightMatrix(file: file, info: checked.tensor(name)!)
            var start = 0
            return sizes.map { part, rows in
                defer { start += rows }
                return packedWeights.pack(WeightMatrix(fused, rows: start..<start + rows, name: "\(name)[\(part)]"), types: packedTypes)
            }
        }
        // A sentence encoder only looks rows of its token table up (it has no output product).
        tokenEmbedding = hp.traits.sentenceEncoder ? unpacked(LlamaHyperparameters.tokenEmbedding)
            : matrix(LlamaHyperparameters.tokenEmbedding)
        layers = (0..<hp.layers).map { i in
            let qkv = hp.traits.fusedProjections
                ? parts(T.queryKeyValue.name(layer: i), [("q", hp.qDim), ("k", hp.kvDim), ("v", hp.kvDim)])
                : [matrix(T.query.name(layer: i)), matrix(T.key.name(layer: i)), matrix(T.value.name(layer: i))]
            let gateUp = hp.traits.fusedProjections
                ? parts(T.up.name(layer: i), [("gate", hp.feedForward), ("up", hp.feedForward)])
                : [matrix(T.gate.name(layer: i)), matrix(T.up.name(layer: i))]
            return Layer(
                attentionNorm: vector(T.attentionNorm.name(layer: i))!,
                query: qkv[0], key: qkv[1], value: qkv[2], attentionOutput: matrix(T.attentionOutput.name(layer: i)),
                queryBias: vector(T.queryBias.name(layer: i)), keyBias: vector(T.keyBias.name(layer: i)),
                valueBias: vector(T.valueBias.name(layer: i)),
                queryNorm: vector(T.queryNorm.name(layer: i)), keyNorm: vector(T.keyNorm.name(layer: i)),
                postAttentionNorm: vector(T.postAttentionNorm.name(layer: i)),
                postFeedForwardNorm: vector(T.postFeedForwardNorm.name(layer: i)),
                ffnNorm: vector(T.ffnNorm.name(layer: i))!,
                gate: gateUp[0], up: gateUp[1], down: matrix(T.down.name(layer: i)))
        }
        outputNorm = vector(LlamaHyperparameters.outputNorm)!
        output = checked.tensor(LlamaHyperparameters.output) != nil ? matrix(LlamaHyperparameters.output) : tokenEmbedding
        projections = hp.projectionWidths.indices.map { matrix("\(LlamaHyperparameters.projectionTensors[$0]).weight") }
    }
}
