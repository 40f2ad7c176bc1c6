import Foundation

/// The encoder's element-wise operations: LayerNorm with its residual, bias, GELU.
extension VectorOps {
    /// x = LayerNorm(x + residual) × weight + bias, over n values (residual may be nil).
    public static func addLayerNorm(_ x: UnsafeMutablePointer<Float>, _ residual: UnsafePointer<Float>?, weight: UnsafePointer<Float>,
                                    bias: UnsafePointer<Float>, _ n: Int, epsilon: Float) {
        if let residual { add(residual, into: x, n) }
        var mean: Double = 0
        for i in 0..<n { mean += Double(x[i]) }
        mean /= Double(n)
        var variance: Double = 0
        for i in 0..<n { let d = Double(x[i]) - mean; variance += d * d }
        let inverse = Float(1 / (variance / Double(n) + Double(epsilon)).squareRoot()), m = Float(mean)
        for i in 0..<n { x[i] = (x[i] - m) * inverse * weight[i] + bias[i] }
    }

    /// x = GELU(x) = x/2 × (1 + erf(x/√2)), the exact form BERT uses (not the tanh estimate),
    /// with `erf` as a rational approximation (|error| < 5e-7) so that it vectorises: libm's
    /// erf took most of an embedding's time.
    public static func gelu(_ x: UnsafeMutablePointer<Float>, _ n: Int) {
        var i = 0
        let raw = UnsafeMutableRawPointer(x)
        while i + 16 <= n {
            let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
            raw.storeBytes(of: 0.5 * v * (1 + erf16(v * 0.70710678118654752)), toByteOffset: 4 * i, as: SIMD16<Float>.self)
            i += 16
        }
        while i < n { x[i] = 0.5 * x[i] * (1 + Foundation.erf(x[i] * 0.70710678118654752)); i += 1 }
    }

    /// erf(x) as x·P(x²)/Q(x²) on x clamped to [-4, 4] (beyond it erf is ±1 in single
    /// precision); the coefficients are the minimax fit Eigen and XLA use for float erf.
    @inline(__always) static func erf16(_ a: SIMD16<Float>) -> SIMD16<Float> {
        // Masked replacement, not `clamped`: clamped compiled to lane-by-lane code 8× slower
        // (measured), which made GELU a quarter of an embedding's time.
        var x = a
        x.replace(with: 4, where: x .> 4)
        x.replace(with: -4, where: x .< -4)
        let x2 = x * x
        func c(_ v: Float) -> SIMD16<Float> { SIMD16(repeating: v) }
        var p = c(-2.72614225801306e-10)
        p = p * x2 + c(2.77068142495902e-08)
        p = p * x2 + c(-2.10102402082508e-06)
        p = p * x2 + c(-5.69250639462346e-05)
        p = p * x2 + c(-7.34990630326855e-04)
        p = p * x2 + c(-2.95459980854025e-03)
        p = p * x2 + c(-1.60960333262415e-02)
        var q = c(-1.45660718464996e-05)
        q = q * x2 + c(-2.13374055278905e-04)
        q = q * x2 + c(-1.68282697438203e-03)
        q = q * x2 + c(-7.37332916720468e-03)
        q = q * x2 + c(-1.42647390514189e-02)
        return x * p / q
    }
}
