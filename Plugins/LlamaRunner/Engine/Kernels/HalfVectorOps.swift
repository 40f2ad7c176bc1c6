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

    /// One query head's attention over cached positions `first ..< first + n` of a ring of `cells`
    /// cells, `stride` halves apart (the head's offset already added to `keys` and `values`):
    /// `scores[j]` = (q · key j) × `scale`, their softmax in place, and `out` = Σ scores[j] ×
    /// value j. One AVX-512 call (`lk_attention.h`) when the AVX-512 VNNI kernels are in use, with
    /// the same bits as the loop over `dot`, `VectorOps.softmax` and `axpy` that runs otherwise.
    @inline(__always) static func attend(
        _ q: UnsafePointer<Float>, keys: UnsafePointer<UInt16>, values: UnsafePointer<UInt16>, stride: Int, cells: Int,
        first: Int, n: Int, headDim: Int, scale: Float, scores: UnsafeMutablePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        if MatMul.implementation == .avx512vnni,
           lk_attend_half(q, keys, values, stride, Int32(cells), Int32(first), Int32(n), Int32(headDim), scale, scores, out) == 0 { return }
        attendByPosition(q, keys: keys, values: values, stride: stride, cells: cells, first: first, n: n, headDim: headDim,
                         scale: scale, scores: scores, out: out)
    }

    /// `attend` one cached position at a time (`dot`, `axpy`: the intrinsics or the reference).
    static func attendByPosition(
        _ q: UnsafePointer<Float>, keys: UnsafePointer<UInt16>, values: UnsafePointer<UInt16>, stride: Int, cells: Int,
        first: Int, n: Int, headDim: Int, scale: Float, scores: UnsafeMutablePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        for j in 0..<n { scores[j] = dot(q, keys + ((first + j) % cells) * stride, headDim) * scale }
        VectorOps.softmax(scores, n)
        out.update(repeating: 0, count: headDim)
        for j in 0..<n { axpy(scores[j], values + ((first + j) % cells) * stride, out, headDim) }
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
