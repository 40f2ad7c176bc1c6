/// Plain dequantisers: one block layout per type, exactly as ggml defines it. They are the
/// reference the optimised kernels are tested against, and they serve the types that have no
/// fused kernel (K-quants, 16-bit floats).
public enum Dequantize {
    @inline(__always) static func half(_ p: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(Float16(bitPattern: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    /// Dequantises `count` elements (a multiple of the type's block size) starting at `src`.
    public static func row(_ type: TensorType, _ src: UnsafeRawPointer, count: Int, into y: UnsafeMutablePointer<Float>) {
        let blocks = count / type.blockSize
        switch type {
        case .f32:
            for i in 0..<count { y[i] = src.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) }
        case .f16:
            for i in 0..<count { y[i] = half(src, 2 * i) }
        case .bf16:
            for i in 0..<count { y[i] = Float(bitPattern: UInt32(src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) << 16) }
        case .q4_0:
            for b in 0..<blocks {
                let p = src + b * 18, o = y + b * 32
                let d = half(p, 0)
                for j in 0..<16 {
                    let q = p.load(fromByteOffset: 2 + j, as: UInt8.self)
                    o[j] = Float(Int(q & 0xF) - 8) * d
                    o[j + 16] = Float(Int(q >> 4) - 8) * d
                }
            }
        case .q4_1:
            for b in 0..<blocks {
                let p = src + b * 20, o = y + b * 32
                let d = half(p, 0), m = half(p, 2)
                for j in 0..<16 {
                    let q = p.load(fromByteOffset: 4 + j, as: UInt8.self)
                    o[j] = Float(q & 0xF) * d + m
                    o[j + 16] = Float(q >> 4) * d + m
                }
            }
        case .q8_0:
            for b in 0..<blocks {
                let p = src + b * 34, o = y + b * 32
                let d = half(p, 0)
                for j in 0..<32 { o[j] = Float(p.load(fromByteOffset: 2 + j, as: Int8.self)) * d }
            }
        case .q4_K:
            for b in 0..<blocks { q4K(src + b * 144, y + b * 256) }
        case .q6_K:
            for b in 0..<blocks { q6K(src + b * 210, y + b * 256) }
        case .q5_0:
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 32) { q in
                for b in 0..<blocks {
                    let (d, m) = BlockDecoding.decode(type, src + b * type.blockBytes, q.baseAddress!)
                    for j in 0..<32 { y[32 * b + j] = Float(q[j]) * d + m }
                }
            }
        }
    }

    /// Q4_K: d, dmin (f16), 12 bytes of packed 6-bit scales and mins for 8 sub-blocks, 128 nibble bytes.
    private static func q4K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = half(p, 0), dmin = half(p, 2)
        let scales = p + 4, qs = p + 16
        func scaleMin(_ j: Int) -> (Float, Float) {
            let s = { (i: Int) in scales.load(fromByteOffset: i, as: UInt8.self) }
            if j < 4 { return (Float(s(j) & 63), Float(s(j + 4) & 63)) }
            return (Float((s(j + 4) & 0xF) | ((s(j - 4) >> 6) << 4)), Float((s(j + 4) >> 4) | ((s(j) >> 6) << 4)))
        }
        for chunk in 0..<4 {
            let (sc1, m1) = scaleMin(2 * chunk), (sc2, m2) = scaleMin(2 * chunk + 1)
            let d1 = d * sc1, min1 = dmin * m1, d2 = d * sc2, min2 = dmin * m2
            for l in 0..<32 {
                let q = qs.load(fromByteOffset: 32 * chunk + l, as: UInt8.self)
                y[64 * chunk + l] = d1 * Float(q & 0xF) - min1
                y[64 * chunk + 32 + l] = d2 * Float(q >> 4) - min2
            }
        }
    }

    /// Q6_K: 128 bytes low nibbles, 64 bytes high 2-bit pairs, 16 signed 8-bit scales, d (f16).
    private static func q6K(_ p: UnsafeRawPointer, _ y: UnsafeMutablePointer<Float>) {
        let d = half(p, 208)
        for half128 in 0..<2 {
            let ql = p + 64 * half128, qh = p + 128 + 32 * half128, sc = p + 192 + 8 * half128
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
