import CLlamaKernels

/// The arithmetic of the f16 KV cache: keys and values are stored as IEEE half-precision bits,
/// as llama.cpp's default cache holds them. The C kernels (F16C) run when the intrinsics
/// kernels are in use; `Reference` is the plain Swift beside them, and gives the same bits.
enum HalfVectorOps {
    @inline(__always) static var usesIntrinsics: Bool { MatMul.implementation.usesIntrinsics }

    /// dst[i] = half(src[i]), to nearest, ties to even.
    @inline(__always) static func store(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt16>, _ n: Int) {
        if usesIntrinsics, lk_float_to_half(src, dst, n) == 0 { return }
        Reference.store(src, dst, n)
    }

    /// x · y in float32, in `lk_dot_half`'s order.
    @inline(__always) static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<UInt16>, _ n: Int) -> Float {
        usesIntrinsics ? lk_dot_half(x, y, n) : Reference.dot(x, y, n)
    }

    /// y += a × x
    @inline(__always) static func axpy(_ a: Float, _ x: UnsafePointer<UInt16>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
        if usesIntrinsics { lk_axpy_half(a, x, y, n) } else { Reference.axpy(a, x, y, n) }
    }

    /// The portable definitions, one value at a time (half to float through `HalfFloat.table`).
    enum Reference {
        @inline(__always) static func float(_ h: UInt16) -> Float { HalfFloat.table[Int(h)] }
        @inline(__always) static func half(_ f: Float) -> UInt16 { Float16(f).bitPattern }

        static func store(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt16>, _ n: Int) {
            for i in 0..<n { dst[i] = half(src[i]) }
        }

        static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<UInt16>, _ n: Int) -> Float {
            var lanes = SIMD16<Float>()
            var i = 0
            while i + 16 <= n {
                for l in 0..<16 { lanes[l] += x[i + l] * float(y[i + l]) }
                i += 16
            }
            var total: Float = 0
            for l in 0..<16 { total += lanes[l] }
            while i < n { total += x[i] * float(y[i]); i += 1 }
            return total
        }

        static func axpy(_ a: Float, _ x: UnsafePointer<UInt16>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
            for i in 0..<n { y[i] += a * float(x[i]) }
        }
    }
}
