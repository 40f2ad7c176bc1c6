import CLlamaKernels

/// Plain scalar products of K-quant weight rows with 8-bit activation blocks, written straight
/// from the superblock layouts (`lk_blocks.h`, read through `Dequantize`'s field readers): the
/// yardstick for the batched kernel (`llama_gemm.h`), the only one that multiplies these types by
/// quantised activations (without AVX-512 VNNI, the row is dequantised and multiplied in float).
/// Each 32-value block j of a superblock is summed exactly in integers, per sub-block of 16 where
/// the scales are per 16 values (Q2_K, Q3_K, Q6_K); Q2_K's minimums multiply d × the sum of each
/// 16 activations, the 32-value types' the activation block's s.
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
                case .q2_K:
                    // Sub-blocks 2j and 2j + 1, each with a 4-bit scale (low nibble) and minimum.
                    let d = BlockDecoding.half(p, Int(LK_Q2_K_D)), dmin = BlockDecoding.half(p, Int(LK_Q2_K_DMIN))
                    for half in 0..<2 {
                        let packed = p.load(fromByteOffset: Int(LK_Q2_K_SCALES) + 2 * j + half, as: UInt8.self)
                        var isum = 0, xsum = 0
                        for l in 16 * half..<16 * half + 16 {
                            isum += Dequantize.twoBits(p + Int(LK_Q2_K_QS), 32 * j + l) * Int(xq[l])
                            xsum += Int(xq[l])
                        }
                        total += d * Float(packed & 0xF) * dx * Float(isum) - dmin * Float(packed >> 4) * (dx * Float(xsum))
                    }
                case .q3_K:
                    let d = BlockDecoding.half(p, Int(LK_Q3_K_D))
                    for half in 0..<2 {
                        var isum = 0
                        for l in 16 * half..<16 * half + 16 { isum += Dequantize.q3KValue(p, 32 * j + l) * Int(xq[l]) }
                        total += d * Float(Dequantize.q3KScale(p + Int(LK_Q3_K_SCALES), 2 * j + half)) * dx * Float(isum)
                    }
                case .q4_K:
                    // 6-bit scale and minimum j of the 12 packed bytes (ggml's get_scale_min_k4).
                    let (sc, mn) = Dequantize.q4KScaleMin(p + Int(LK_Q4_K_SCALES), j)
                    // Block j: low (even j) or high nibbles of bytes 32(j/2)..+31.
                    var isum = 0
                    for l in 0..<32 {
                        let byte = p.load(fromByteOffset: Int(LK_Q4_K_QS) + 32 * (j / 2) + l, as: UInt8.self)
                        isum += Int(j % 2 == 0 ? byte & 0xF : byte >> 4) * Int(xq[l])
                    }
                    total += BlockDecoding.half(p, Int(LK_Q4_K_D)) * sc * dx * Float(isum) - BlockDecoding.half(p, Int(LK_Q4_K_DMIN)) * mn * ds[2 * b + 1]
                case .q5_K:
                    let (sc, mn) = Dequantize.q4KScaleMin(p + Int(LK_Q5_K_SCALES), j)
                    var isum = 0
                    for l in 0..<32 { isum += Dequantize.q5KValue(p, 32 * j + l) * Int(xq[l]) }
                    total += BlockDecoding.half(p, Int(LK_Q5_K_D)) * sc * dx * Float(isum) - BlockDecoding.half(p, Int(LK_Q5_K_DMIN)) * mn * ds[2 * b + 1]
                case .q6_K:
                    // Half h of 128 values, block r in it: 4 low bits from ql, 2 high bits from qh,
                    // a signed scale per 16 values.
                    let h = j / 4, r = j % 4
                    var isum = [0, 0]
                    for l in 0..<32 {
                        let low = p.load(fromByteOffset: Int(LK_Q6_K_QL) + 64 * h + 32 * (r % 2) + l, as: UInt8.self)
                        let high = p.load(fromByteOffset: Int(LK_Q6_K_QH) + 32 * h + l, as: UInt8.self) >> (2 * r) & 3
                        let value = Int((r < 2 ? low & 0xF : low >> 4) | high << 4) - 32
                        isum[l / 16] += value * Int(xq[l])
                    }
                    for half in 0..<2 {
                        let sc = Float(p.load(fromByteOffset: Int(LK_Q6_K_SCALES) + 8 * h + 2 * r + half, as: Int8.self))
                        total += BlockDecoding.half(p, Int(LK_Q6_K_D)) * sc * dx * Float(isum[half])
                    }
                default:
                    preconditionFailure("\(type.name) is not a K-quant")
                }
            }
        }
        return total
    }
}
