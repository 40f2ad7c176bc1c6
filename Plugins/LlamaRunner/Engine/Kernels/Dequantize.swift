import CLlamaKernels

/// Plain dequantisers: each type's blocks to floats, exactly as ggml defines them. They are the
/// reference the optimised kernels are tested against, and they serve the types that have no
/// integer kernel (K-quants, 16-bit floats). Field offsets come from `lk_blocks.h`.
public enum Dequantize {
    /// Dequantises `count` elements (a multiple of the type's block size) starting at `src`.
    public static func row(_ type: TensorType, _ src: UnsafeRawPointer, count: Int, into y: UnsafeMutablePointer<Float>) {
        let blocks = count / type.blockSize
        switch type {
        case .f32:
            for i in 0..<count { y[i] = src.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) }
        case .f16:
            for i in 0..<count { y[i] = BlockDecoding.half(src, 2 * i) }
        case .bf16:
            for i in 0..<count { y[i] = Float(bitPattern: UInt32(src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) << 16) }
        case .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .iq4_nl:
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 32) { q in
                for b in 0..<blocks {
                    let (d, m) = BlockDecoding.decode(type, src + b * type.blockBytes, q.baseAddress!)
                    for j in 0..<32 { y[32 * b + j] = Float(q[j]) * d + m }
                }
            }
        case .q2_K:
            for b in 0..<blocks { q2K(src + b * type.blockBytes, y + b * type.blockSize) }
        case .q3_K:
            for b in 0..<blocks { q3K(src + b * type.blockBytes, y + b * type.blockSize) }
        case .q4_K:
            for b in 0..<blocks { q4K(src + b * type.blockBytes, y + b * type.blockSize) }
        case .q5_K:
            for b in 0..<blocks { q5K(src + b * type.blockBytes, y + b * type.blockSize) }
        case .q6_K:
            for b in 0..<blocks { q6K(src + b * type.blockBytes, y + b * type.blockSize) }
        }
    }

    /// Q4_K's 6-bit scale and minimum of sub-block j (0..<8) from its 12 packed bytes.
    static func q4KScaleMin(_ scales: UnsafeRawPointer, _ j: Int) -> (Float, Float) {
        let s = { (i: Int) in scales.load(fromByteOffset: i, as: UInt8.self) }
        if j < 4 { return (Float(s(j) & 63), Float(s(j + 4) & 63)) }
        return (Float((s(j + 4) & 0xF) | ((s(j - 4) >> 6) << 4)), Float((s(j + 4) >> 4) | ((s(j) >> 6) << 4)))
    }

    /// Q2_K and Q3_K: value 128h + 32j + l of a block is bits 2j..2j+1 of qs[32h + l] (l < 32), in
    /// sub-block 8h + 2j + l / 16.
    @inline(__always) static func twoBits(_ qs: UnsafeRawPointer, _ i: Int) -> Int {
        let h = i / 128, j = i % 128 / 32, l = i % 32
        return Int(qs.load(fromByteOffset: 32 * h + l, as: UInt8.self) >> (2 * j) & 3)
    }

    private static func q2K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = BlockDecoding.half(p, Int(LK_Q2_K_D)), dmin = BlockDecoding.half(p, Int(LK_Q2_K_DMIN))
        let qs = p + Int(LK_Q2_K_QS)
        for s in 0..<16 {
            let sc = p.load(fromByteOffset: Int(LK_Q2_K_SCALES) + s, as: UInt8.self)
            let dl = d * Float(sc & 0xF), ml = dmin * Float(sc >> 4)
            // Sub-block s holds values 128h + 32j + 16k + l' for s = 8h + 2j + k.
            let first = 128 * (s / 8) + 32 * (s % 8 / 2) + 16 * (s % 2)
            for i in first..<first + 16 { y[i] = dl * Float(twoBits(qs, i)) - ml }
        }
    }

    /// Q3_K's 6-bit scale of sub-block i, less 32.
    static func q3KScale(_ scales: UnsafeRawPointer, _ i: Int) -> Int {
        let s = { (k: Int) in Int(scales.load(fromByteOffset: k, as: UInt8.self)) }
        let low = i < 8 ? s(i) & 0xF : s(i - 8) >> 4
        let high = s(8 + i % 4) >> (2 * (i / 4)) & 3
        return (low | high << 4) - 32
    }

    /// Q3_K's value i (-4...3) of the block at `p`: the high bit of value 128h + 32j + l is bit
    /// 4h + j of hmask[l]; clear means -4.
    @inline(__always) static func q3KValue(_ p: UnsafeRawPointer, _ i: Int) -> Int {
        let bit = 4 * (i / 128) + i % 128 / 32
        let high = p.load(fromByteOffset: Int(LK_Q3_K_HMASK) + i % 32, as: UInt8.self) >> bit & 1
        return twoBits(p + Int(LK_Q3_K_QS), i) - (high == 0 ? 4 : 0)
    }

    private static func q3K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = BlockDecoding.half(p, Int(LK_Q3_K_D))
        let scales = p + Int(LK_Q3_K_SCALES)
        for s in 0..<16 {
            let dl = d * Float(q3KScale(scales, s))
            let first = 128 * (s / 8) + 32 * (s % 8 / 2) + 16 * (s % 2)
            for i in first..<first + 16 { y[i] = dl * Float(q3KValue(p, i)) }
        }
    }

    private static func q4K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = BlockDecoding.half(p, Int(LK_Q4_K_D)), dmin = BlockDecoding.half(p, Int(LK_Q4_K_DMIN))
        let scales = p + Int(LK_Q4_K_SCALES), qs = p + Int(LK_Q4_K_QS)
        for chunk in 0..<4 {
            let (sc1, m1) = q4KScaleMin(scales, 2 * chunk), (sc2, m2) = q4KScaleMin(scales, 2 * chunk + 1)
            let d1 = d * sc1, min1 = dmin * m1, d2 = d * sc2, min2 = dmin * m2
            for l in 0..<32 {
                let q = qs.load(fromByteOffset: 32 * chunk + l, as: UInt8.self)
                y[64 * chunk + l] = d1 * Float(q & 0xF) - min1
                y[64 * chunk + 32 + l] = d2 * Float(q >> 4) - min2
            }
        }
    }

    /// Q5_K's value i (0...31) of the block at `p`, in sub-block j = i / 32 of chunk j / 2: the
    /// low (even j) or high nibble of qs[32(j / 2) + l], fifth bit bit j of qh[l] (l = i % 32).
    @inline(__always) static func q5KValue(_ p: UnsafeRawPointer, _ i: Int) -> Int {
        let j = i / 32, l = i % 32
        let q = p.load(fromByteOffset: Int(LK_Q5_K_QS) + 32 * (j / 2) + l, as: UInt8.self) >> (4 * (j % 2)) & 0xF
        let h = p.load(fromByteOffset: Int(LK_Q5_K_QH) + l, as: UInt8.self) >> j & 1
        return Int(q | h << 4)
    }

    private static func q5K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = BlockDecoding.half(p, Int(LK_Q5_K_D)), dmin = BlockDecoding.half(p, Int(LK_Q5_K_DMIN))
        for j in 0..<8 {
            let (sc, mn) = q4KScaleMin(p + Int(LK_Q5_K_SCALES), j)
            let dl = d * sc, ml = dmin * mn
            for i in 32 * j..<32 * j + 32 { y[i] = dl * Float(q5KValue(p, i)) - ml }
        }
    }

    private static func q6K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = BlockDecoding.half(p, Int(LK_Q6_K_D))
        for half128 in 0..<2 {
            let ql = p + Int(LK_Q6_K_QL) + 64 * half128, qh = p + Int(LK_Q6_K_QH) + 32 * half128
            let sc = p + Int(LK_Q6_K_SCALES) + 8 * half128
            let o = y + 128 * half128
            for l in 0..<32 {
                let isc = l / 16
                let lo0 = ql.load(fromByteOffset: l, as: UInt8.self), lo1 = ql.load(fromByteOffset: l + 32, as: UInt8.self)
                let h = qh.load(fromByteOffset: l, as: UInt8.self)
                let q1 = Int((lo0 & 0xF) | ((h & 3) << 4)) - 32
                let q2 = Int((lo1 & 0xF) | (((h >> 2) & 3) << 4)) - 32
                let q3 = Int((lo0 >> 4) | (((h >> 4) & 3) << 4)) - 32
                let q4 = Int((lo1 >> 4) | (((h >> 6) & 3) << 4)) - 32
                func s(_ i: Int) -> Float { Float(sc.load(fromByteOffset: i, as: Int8.self)) }
                o[l] = d * s(isc) * Float(q1)
                o[l + 32] = d * s(isc + 2) * Float(q2)
                o[l + 64] = d * s(isc + 4) * Float(q3)
                o[l + 96] = d * s(isc + 6) * Float(q4)
            }
        }
    }
}
