/// An encoder's tensors, looked up by llama.cpp's BERT names and checked for shape. Matrices
/// stay in the mapping; vectors (biases, LayerNorms) and the small position and token-type
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

    init(file: GGUFFile, _ hp: EncoderHyperparameters) throws(GGUFError) {
        let d = hp.embedding, ff = hp.feedForward
        func info(_ name: String) throws(GGUFError) -> GGUFTensorInfo {
            guard let info = file.tensor(named: name) else { throw GGUFError(.missingTensor, path: file.path, "tensor \(name) is missing") }
            return info
        }
        func matrix(_ name: String, columns: Int, rows: Int?) throws(GGUFError) -> WeightMatrix {
            let info = try info(name)
            let m = WeightMatrix(file: file, info: info)
            guard info.dimensions.count == 2, m.columns == columns, rows == nil || m.rows == rows else {
                throw GGUFError(.wrongTensorShape, path: file.path, "tensor \(name) has shape \(info.dimensions), expected [\(columns), \(rows.map(String.init) ?? "n")]")
            }
            return m
        }
        /// Rows 0..<rows of a [columns, n ≥ rows] table (or a [columns] vector), as floats.
        func floats(_ name: String, columns: Int, rows: Int = 1) throws(GGUFError) -> [Float] {
            let info = try info(name)
            let shapeFits = rows == 1 && info.dimensions == [columns]
                || info.dimensions.count == 2 && info.dimensions[0] == columns && info.dimensions[1] >= rows
            guard shapeFits, columns % info.type.blockSize == 0 else {
                throw GGUFError(.wrongTensorShape, path: file.path, "tensor \(name) has shape \(info.dimensions), expected [\(columns)\(rows > 1 ? ", ≥ \(rows)" : "")]")
            }
            let m = WeightMatrix(file: file, info: info)
            var v = [Float](repeating: 0, count: rows * columns)
            v.withUnsafeMutableBufferPointer { out in
                for r in 0..<rows { Dequantize.row(info.type, m.row(r), count: columns, into: out.baseAddress! + r * columns) }
            }
            return v
        }
        func norm(_ prefix: String) throws(GGUFError) -> LayerNorm {
            LayerNorm(weight: try floats(prefix + ".weight", columns: d), bias: try floats(prefix + ".bias", columns: d))
        }

        tokenEmbedding = try matrix("token_embd.weight", columns: d, rows: nil)
        positionEmbedding = try floats("position_embd.weight", columns: d, rows: hp.contextLength)
        tokenType = file.tensor(named: "token_types.weight") != nil
            ? try floats("token_types.weight", columns: d) : [Float](repeating: 0, count: d)
        embeddingNorm = try norm("token_embd_norm")
        var layers: [Layer] = []
        for i in 0..<hp.layers {
            let p = "blk.\(i)."
            layers.append(Layer(
                query: try matrix(p + "attn_q.weight", columns: d, rows: d),
                key: try matrix(p + "attn_k.weight", columns: d, rows: d),
                value: try matrix(p + "attn_v.weight", columns: d, rows: d),
                attentionOutput: try matrix(p + "attn_output.weight", columns: d, rows: d),
                queryBias: try floats(p + "attn_q.bias", columns: d),
                keyBias: try floats(p + "attn_k.bias", columns: d),
                valueBias: try floats(p + "attn_v.bias", columns: d),
                attentionOutputBias: try floats(p + "attn_output.bias", columns: d),
                attentionNorm: try norm(p + "attn_output_norm"),
                up: try matrix(p + "ffn_up.weight", columns: d, rows: ff),
                down: try matrix(p + "ffn_down.weight", columns: ff, rows: d),
                upBias: try floats(p + "ffn_up.bias", columns: ff),
                downBias: try floats(p + "ffn_down.bias", columns: d),
                outputNorm: try norm(p + "layer_output_norm")))
        }
        self.layers = layers
    }
}
