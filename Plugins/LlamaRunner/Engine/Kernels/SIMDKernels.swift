import CLlamaKernels

/// Portable optimised kernels in Swift SIMD types: integer dot products of a quantised weight
/// row with 8-bit activation blocks. The fallback when no intrinsics kernel suits the CPU.
enum SIMDKernels {
    /// out[t * outStride + r] = row r of `w` · token t of `x`, for r in `rows`, every token.
    static func multiply(_ w: WeightMatrix, _ x: QuantizedActivations, rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int) {
        let blocks = x.blocksPerToken
        for r in rows {
            let row = w.row(r)
            for t in 0..<x.tokens {
                let q = UnsafeRawPointer(x.qs + t * x.columns), ds = x.scales + 2 * t * blocks
                let v: Float
                switch w.type {
                case .q4_1: v = dotQ4_1(row, q, ds, blocks)
                case .q4_0: v = dotQ4_0(row, q, ds, blocks)
                case .q8_0: v = dotQ8_0(row, q, ds, blocks)
                case .q5_0: v = dotQ5_0(row, q, ds, blocks)
                default: preconditionFailure("\(w.type.name) has no integer kernel")
                }
                out[t * outStride + r] = v
            }
        }
    }

    // `ds` holds each activation block's scale d and sum s side by side (QuantizedActivations).

    /// Sum of nibble × activation over a 32-value block; `offset` is subtracted from each nibble
    /// (8 for Q4_0's signed nibbles, 0 for Q4_1); `high` adds the 5-bit types' fifth bits.
    @inline(__always) static func nibbleProducts(_ raw: SIMD16<UInt8>, _ q: UnsafeRawPointer, offset: Int16 = 0,
                                                 high: (SIMD16<Int16>, SIMD16<Int16>) = (.zero, .zero)) -> Int32 {
        let lo = SIMD16<Int16>(truncatingIfNeeded: raw & 0x0F) &+ high.0 &- offset
        let hi = SIMD16<Int16>(truncatingIfNeeded: raw &>> 4) &+ high.1 &- offset
        let a0 = SIMD16<Int16>(truncatingIfNeeded: q.loadUnaligned(as: SIMD16<Int8>.self))
        let a1 = SIMD16<Int16>(truncatingIfNeeded: q.loadUnaligned(fromByteOffset: 16, as: SIMD16<Int8>.self))
        // 31 × 128 × 2 fits Int16; the 16-lane sum needs Int32.
        return SIMD16<Int32>(truncatingIfNeeded: lo &* a0 &+ hi &* a1).wrappedSum()
    }

    static func dotQ4_1(_ w: UnsafeRawPointer, _ q: UnsafeRawPointer, _ ds: UnsafePointer<Float>, _ blocks: Int) -> Float {
        var acc: Float = 0
        for b in 0..<blocks {
            let p = w + 20 * b
            let isum = nibbleProducts(p.loadUnaligned(fromByteOffset: 4, as: SIMD16<UInt8>.self), q + 32 * b)
            acc += HalfFloat.load(p) * ds[2 * b] * Float(isum) + HalfFloat.load(p, 2) * ds[2 * b + 1]
        }
        return acc
    }

    static func dotQ4_0(_ w: UnsafeRawPointer, _ q: UnsafeRawPointer, _ ds: UnsafePointer<Float>, _ blocks: Int) -> Float {
        var acc: Float = 0
        for b in 0..<blocks {
            let p = w + 18 * b
            let isum = nibbleProducts(p.loadUnaligned(fromByteOffset: 2, as: SIMD16<UInt8>.self), q + 32 * b, offset: 8)
            acc += HalfFloat.load(p) * ds[2 * b] * Float(isum)
        }
        return acc
    }

    /// A 5-bit block's fifth bits (bit j of the little-endian word at `p`) as 16 in lane j of
    /// the values 0-15 and 16-31.
    @inline(__always) static func highBits(_ p: UnsafeRawPointer) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let word = p.loadUnaligned(as: UInt32.self)
        let shifts = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        let lo = (SIMD16<UInt32>(repeating: word) &>> shifts & 1) &<< 4
        let hi = (SIMD16<UInt32>(repeating: word >> 16) &>> shifts & 1) &<< 4
        return (SIMD16<Int16>(truncatingIfNeeded: lo), SIMD16<Int16>(truncatingIfNeeded: hi))
    }

    static func dotQ5_0(_ w: UnsafeRawPointer, _ q: UnsafeRawPointer, _ ds: UnsafePointer<Float>, _ blocks: Int) -> Float {
        var acc: Float = 0
        for b in 0..<blocks {
            let p = w + Int(LK_Q5_0_BYTES) * b
            let isum = nibbleProducts(p.loadUnaligned(fromByteOffset: Int(LK_Q5_0_QS), as: SIMD16<UInt8>.self), q + 32 * b,
                                      offset: 16, high: highBits(p + Int(LK_Q5_0_QH)))
            acc += HalfFloat.load(p, Int(LK_Q5_0_D)) * ds[2 * b] * Float(isum)
        }
        return acc
    }

    static func dotQ8_0(_ w: UnsafeRawPointer, _ q: UnsafeRawPointer, _ ds: UnsafePointer<Float>, _ blocks: Int) -> Float {
        var acc: Float = 0
        for b in 0..<blocks {
            let p = w + 34 * b
            let w0 = SIMD16<Int16>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 2, as: SIMD16<Int8>.self))
            let w1 = SIMD16<Int16>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: 18, as: SIMD16<Int8>.self))
            let a0 = SIMD16<Int16>(truncatingIfNeeded: (q + 32 * b).loadUnaligned(as: SIMD16<Int8>.self))
            let a1 = SIMD16<Int16>(truncatingIfNeeded: (q + 32 * b).loadUnaligned(fromByteOffset: 16, as: SIMD16<Int8>.self))
            let isum = SIMD16<Int32>(truncatingIfNeeded: w0 &* a0).wrappedSum() &+ SIMD16<Int32>(truncatingIfNeeded: w1 &* a1).wrappedSum()
            acc += HalfFloat.load(p) * ds[2 * b] * Float(isum)
        }
        return acc
    }
}
