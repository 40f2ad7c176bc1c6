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

    /// y = x / rms(x) × weight
    public static func rmsNorm(_ x: UnsafePointer<Float>, _ weight: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int, epsilon: Float) {
        var sum: Double = 0
        for i in 0..<n { sum += Double(x[i]) * Double(x[i]) }
        let scale = Float(1 / (sum / Double(n) + Double(epsilon)).squareRoot())
        for i in 0..<n { y[i] = x[i] * scale * weight[i] }
    }

    /// g = silu(g) × u
    public static func swiGLU(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ n: Int) {
        for i in 0..<n {
            let v = g[i]
            g[i] = v / (1 + exp(-v)) * u[i]
        }
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
