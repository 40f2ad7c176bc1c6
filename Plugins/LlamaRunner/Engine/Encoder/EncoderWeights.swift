/// An encoder's tensors, as the model check found them (present, of the expected shape).
/// Matrices stay in the mapping, the layers' ones with packed copies for the AVX-512 VNNI
/// kernels (as the chat models' are: without them every product rearranged its weights into
/// panels again, a quarter of an embedding's time; Engine README); vectors (biases, LayerNorms) and the small position and token-type
/// tables are converted to float once.
struct EncoderWeights: @unchecked Sendable {
    struct LayerNorm {
        let weight, bias: [Float]
    }

    struct Layer {
        let query, key, value, attentionOutput: WeightMatrix
        let queryBias, keyBias, valueBias, attentionOutputBias: [Float]
        let attentionNorm: LayerNorm
        let up, down: WeightMatrix
        let upBias, downBias: [Float]
        let outputNorm: LayerNorm
    }

    let tokenEmbedding: WeightMatrix
    /// contextLength × embedding floats: row p is position p's embedding.
    let positionEmbedding: [Float]
    /// Token type 0's embedding (single-segment input), zero when the file has no table.
    let tokenType: [Float]
    let embeddingNorm: LayerNorm
    let layers: [Layer]
    /// Owns the layer matrices' packed copies (`WeightMatrix.packed`).
    private let packedWeights = WeightMatrix.PackedWeights()

    init(_ checked: CheckedModel<EncoderHyperparameters>) {
        let file = checked.file, d = checked.hyperparameters.embedding
        let packedWeights = packedWeights
        func matrix(_ name: String) -> WeightMatrix { WeightMatrix(file: file, info: checked.tensor(name)!) }
        func packed(_ name: String) -> WeightMatrix { packedWeights.pack(matrix(name)) }
        /// The first `rows` rows of a table (1 for a vector), as floats.
        func floats(_ name: String, rows: Int = 1) -> [Float] {
            let info = checked.tensor(name)!
            let columns = info.dimensions[0]
            let m = WeightMatrix(file: file, info: info)
            var v = [Float](repeating: 0, count: rows * columns)
            v.withUnsafeMutableBufferPointer { out in
                for r in 0..<rows { Dequantize.row(info.type, m.row(r), count: columns, into: out.baseAddress! + r * columns) }
            }
            return v
        }
        func norm(_ prefix: String) -> LayerNorm {
            LayerNorm(weight: floats(prefix + ".weight"), bias: floats(prefix + ".bias"))
        }
        typealias H = EncoderHyperparameters
        typealias T = H.LayerTensor
        tokenEmbedding = matrix(H.tokenEmbedding)
        positionEmbedding = floats(H.positionEmbedding, rows: checked.hyperparameters.contextLength)
        tokenType = checked.tensor(H.tokenTypes) != nil ? floats(H.tokenTypes) : [Float](repeating: 0, count: d)
        embeddingNorm = norm(H.embeddingNorm)
        layers = (0..<checked.hyperparameters.layers).map { i in
            Layer(
                query: packed(T.query.weight(layer: i)), key: packed(T.key.weight(layer: i)),
                value: packed(T.value.weight(layer: i)), attentionOutput: packed(T.attentionOutput.weight(layer: i)),
                queryBias: floats(T.query.bias(layer: i)), keyBias: floats(T.key.bias(layer: i)),
                valueBias: floats(T.value.bias(layer: i)), attentionOutputBias: floats(T.attentionOutput.bias(layer: i)),
                attentionNorm: LayerNorm(weight: floats(T.attentionNorm.weight(layer: i)), bias: floats(T.attentionNorm.bias(layer: i))),
                up: packed(T.up.weight(layer: i)), down: packed(T.down.weight(layer: i)),
                upBias: floats(T.up.bias(layer: i)), downBias: floats(T.down.bias(layer: i)),
                outputNorm: LayerNorm(weight: floats(T.outputNorm.weight(layer: i)), bias: floats(T.outputNorm.bias(layer: i))))
        }
    }
}
