/// Plain scalar products of Q4_K and Q6_K weight rows with 8-bit activation blocks, written
/// straight from the superblock layouts (ggml's block_q4_K and block_q6_K): the yardstick for the
/// batched kernel (`llama_gemm.h`), the only one that multiplies these types by quantised
/// activations (without AVX-512 VNNI, the row is dequantised and multiplied in float).
enum KQuantReference {
    static func dot(_ type: TensorType, _ w: UnsafeRawPointer, _ x: QuantizedActivations, token: Int) -> Float {
        let blocks = x.blocksPerToken
        let q = x.qs + token * x.columns, ds = x.scales + 2 * token * blocks
        var total: Float = 0
        for s in 0..<blocks / 8 {
            let p = w + s * type.blockBytes
            for j in 0..<8 {
                let b = 8 * s + j, xq = q + 32 * b, dx = ds[2 * b]
                switch type {
                case .q4_K:
                    // 6-bit scale and minimum j of the 12 packed bytes (ggml's get_scale_min_k4).
                    let packed = { (i: Int) in Int(p.load(fromByteOffset: 4 + i, as: UInt8.self)) }
                    let (sc, mn) = j < 4
                        ? (packed(j) & 63, packed(j + 4) & 63)
                        : (packed(j + 4) & 0xF | (packed(j - 4) >> 6) << 4, packed(j + 4) >> 4 | (packed(j) >> 6) << 4)
                    // Block j: low (even j) or high nibbles of bytes 32(j/2)..+31.
                    var isum = 0
                    for l in 0..<32 {
                        let byte = p.load(fromByteOffset: 16 + 32 * (j / 2) + l, as: UInt8.self)
                        isum += Int(j % 2 == 0 ? byte & 0xF : byte >> 4) * Int(xq[l])
                    }
                    total += BlockDecoding.half(p, 0) * Float(sc) * dx * Float(isum) - BlockDecoding.half(p, 2) * Float(mn) * ds[2 * b + 1]
                case .q6_K:
                    // Half h of 128 values, block r in it: 4 low bits from ql, 2 high bits from qh,
                    // a signed scale per 16 values.
                    let h = j / 4, r = j % 4
                    var isum = [0, 0]
                    for l in 0..<32 {
                        let low = p.load(fromByteOffset: 64 * h + 32 * (r % 2) + l, as: UInt8.self)
                        let high = p.load(fromByteOffset: 128 + 32 * h + l, as: UInt8.self) >> (2 * r) & 3
                        let value = Int((r < 2 ? low & 0xF : low >> 4) | high << 4) - 32
                        isum[l / 16] += value * Int(xq[l])
                    }
                    for half in 0..<2 {
                        let sc = Float(p.load(fromByteOffset: 192 + 8 * h + 2 * r + half, as: Int8.self))
                        total += BlockDecoding.half(p, 208) * sc * dx * Float(isum[half])
                    }
                default:
                    preconditionFailure("\(type.name) is not a K-quant")
                }
            }
        }
        return total
    }
}
