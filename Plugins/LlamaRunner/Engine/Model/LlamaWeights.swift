/// The model's tensors, looked up by ggml's names and checked for shape. Matrices stay in the
/// mapping; only the small norm vectors are converted to float.
struct LlamaWeights: @unchecked Sendable {
    struct Layer {
        let attentionNorm: [Float]
        let query, key, value, attentionOutput: WeightMatrix
        let queryBias, keyBias, valueBias: [Float]?
        let ffnNorm: [Float]
        let gate, up, down: WeightMatrix
    }

    let tokenEmbedding: WeightMatrix
    let layers: [Layer]
    let outputNorm: [Float]
    /// `output.weight`, or the token embedding when the file ties them.
    let output: WeightMatrix

    init(file: GGUFFile, _ hp: LlamaHyperparameters) throws(GGUFError) {
        func matrix(_ name: String, columns: Int, rows: Int?) throws(GGUFError) -> WeightMatrix {
            guard let info = file.tensor(named: name) else { throw GGUFError(.missingTensor, path: file.path, "tensor \(name) is missing") }
            let m = WeightMatrix(file: file, info: info)
            guard info.dimensions.count == 2, m.columns == columns, rows == nil || m.rows == rows else {
                throw GGUFError(.wrongTensorShape, path: file.path, "tensor \(name) has shape \(info.dimensions), expected [\(columns), \(rows.map(String.init) ?? "n")]")
            }
            return m
        }
        func vector(_ name: String, _ count: Int, optional: Bool = false) throws(GGUFError) -> [Float]? {
            guard let info = file.tensor(named: name) else {
                if optional { return nil }
                throw GGUFError(.missingTensor, path: file.path, "tensor \(name) is missing")
            }
            guard info.dimensions == [count] else {
                throw GGUFError(.wrongTensorShape, path: file.path, "tensor \(name) has shape \(info.dimensions), expected [\(count)]")
            }
            var v = [Float](repeating: 0, count: count)
            v.withUnsafeMutableBufferPointer { Dequantize.row(info.type, file.data(of: info), count: count, into: $0.baseAddress!) }
            return v
        }
        let d = hp.embedding
        tokenEmbedding = try matrix("token_embd.weight", columns: d, rows: nil)
        var layers: [Layer] = []
        for i in 0..<hp.layers {
            let p = "blk.\(i)."
            layers.append(Layer(
                attentionNorm: try vector(p + "attn_norm.weight", d)!,
                query: try matrix(p + "attn_q.weight", columns: d, rows: hp.qDim),
                key: try matrix(p + "attn_k.weight", columns: d, rows: hp.kvDim),
                value: try matrix(p + "attn_v.weight", columns: d, rows: hp.kvDim),
                attentionOutput: try matrix(p + "attn_output.weight", columns: hp.qDim, rows: d),
                queryBias: try vector(p + "attn_q.bias", hp.qDim, optional: true),
                keyBias: try vector(p + "attn_k.bias", hp.kvDim, optional: true),
                valueBias: try vector(p + "attn_v.bias", hp.kvDim, optional: true),
                ffnNorm: try vector(p + "ffn_norm.weight", d)!,
                gate: try matrix(p + "ffn_gate.weight", columns: d, rows: hp.feedForward),
                up: try matrix(p + "ffn_up.weight", columns: d, rows: hp.feedForward),
                down: try matrix(p + "ffn_down.weight", columns: hp.feedForward, rows: d)))
        }
        self.layers = layers
        outputNorm = try vector("output_norm.weight", d)!
        output = file.tensor(named: "output.weight") != nil
            ? try matrix("output.weight", columns: d, rows: tokenEmbedding.rows) : tokenEmbedding
    }
}
