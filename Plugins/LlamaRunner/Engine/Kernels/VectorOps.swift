import CLlamaKernels
import Foundation

/// The element-wise and small vector operations of the forward pass, on float rows.
public enum VectorOps {
    @inline(__always) public static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD16<Float>()
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while i + 16 <= n {
            acc += ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self) * rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
            i += 16
        }
        var total = acc.sum()
        while i < n { total += a[i] * b[i]; i += 1 }
        return total
    }

    /// y += a × x
    @inline(__always) public static func axpy(_ a: Float, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
        var i = 0
        let rx = UnsafeRawPointer(x), ry = UnsafeMutableRawPointer(y)
        while i + 16 <= n {
            let v = ry.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self) + a * rx.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
            ry.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD16<Float>.self)
            i += 16
        }
        while i < n { y[i] += a * x[i]; i += 1 }
    }

    /// y = x / rms(x) × weight: `lk_rmsnorm` (AVX-512F) when the AVX-512 VNNI kernels are in use,
    /// `rmsNormByValue` otherwise; the two add the squares in another order, so the scale may
    /// differ in its last bit.
    public static func rmsNorm(_ x: UnsafePointer<Float>, _ weight: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int, epsilon: Float) {
        if MatMul.implementation == .avx512vnni, lk_rmsnorm(x, weight, y, Int32(n), epsilon) == 0 { return }
        rmsNormByValue(x, weight, y, n, epsilon: epsilon)
    }

    /// y = x / rms(x) × weight one value at a time, the squares added in double in order.
    static func rmsNormByValue(_ x: UnsafePointer<Float>, _ weight: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int, epsilon: Float) {
        var sum: Double = 0
        for i in 0..<n { sum += Double(x[i]) * Double(x[i]) }
        let scale = Float(1 / (sum / Double(n) + Double(epsilon)).squareRoot())
        for i in 0..<n { y[i] = x[i] * scale * weight[i] }
    }

    /// g = silu(g) × u: `lk_swiglu` (AVX-512F, its own vector exponential) when the AVX-512 VNNI
    /// kernels are in use, within a few ulp of `swiGLUByValue`, which runs otherwise.
    public static func swiGLU(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ n: Int) {
        if MatMul.implementation == .avx512vnni, lk_swiglu(g, u, Int32(n)) == 0 { return }
        swiGLUByValue(g, u, n)
    }

    /// g = silu(g) × u one value at a time, with `expf`.
    static func swiGLUByValue(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ n: Int) {
        for i in 0..<n {
            let v = g[i]
            g[i] = v / (1 + exp(-v)) * u[i]
        }
    }

    /// g = gelu(g) × u, GELU's tanh approximation as ggml computes it on the CPU: the input
    /// rounded to half precision and looked up in a table of half-precision results (exact
    /// beyond ±10), so the feed-forward matches llama.cpp's. `lk_geglu` (AVX-512F, the same bits)
    /// when the AVX-512 VNNI kernels are in use, `geGLUByValue` otherwise.
    public static func geGLU(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ n: Int) {
        if MatMul.implementation == .avx512vnni,
           geluTable.withUnsafeBufferPointer({ lk_geglu(g, u, $0.baseAddress!, Int32(n)) }) == 0 { return }
        geGLUByValue(g, u, n)
    }

    static func geGLUByValue(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ n: Int) {
        geluTable.withUnsafeBufferPointer { table in
            for i in 0..<n {
                let v = g[i]
                g[i] = v <= -10 ? 0 : v >= 10 ? v * u[i] : table[Int(Float16(v).bitPattern)] * u[i]
            }
        }
    }

    /// GELU (tanh form) of every half-precision value, rounded to half precision.
    private static let geluTable: [Float] = (0...UInt16.max).map { bits in
        let x = Float(Float16(bitPattern: bits))
        return Float(Float16(0.5 * x * (1 + tanh(0.797_884_56 * x * (1 + 0.044715 * x * x)))))
    }

    /// x *= a
    public static func scale(_ x: UnsafeMutablePointer<Float>, by a: Float, _ n: Int) {
        for i in 0..<n { x[i] *= a }
    }

    /// In-place softmax over n values.
    public static func softmax(_ x: UnsafeMutablePointer<Float>, _ n: Int) {
        var m = -Float.infinity
        for i in 0..<n { m = max(m, x[i]) }
        var sum: Float = 0
        for i in 0..<n {
            let e = exp(x[i] - m)
            x[i] = e
            sum += e
        }
        let inv = 1 / sum
        for i in 0..<n { x[i] *= inv }
    }

    public static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { y[i] += x[i] }
    }
}
