/// Activations quantised to 8-bit blocks of 32 values, as llama.cpp does before every weight
/// product: per block a scale `d` (max |x| / 127) and `s` = d × (sum of the quants), which the
/// Q4_1 kernel needs for the weight minimum. Buffers are allocated once and reused.
public final class QuantizedActivations: @unchecked Sendable {
    public let capacity: Int
    public private(set) var tokens = 0
    public private(set) var columns = 0
    public let qs: UnsafeMutablePointer<Int8>
    public let d: UnsafeMutablePointer<Float>
    public let s: UnsafeMutablePointer<Float>

    /// Room for `capacity` values (tokens × columns), columns a multiple of 32.
    public init(capacity: Int) {
        self.capacity = capacity
        qs = .allocate(capacity: capacity + 64)
        d = .allocate(capacity: capacity / 32 + 1)
        s = .allocate(capacity: capacity / 32 + 1)
    }

    deinit {
        qs.deallocate()
        d.deallocate()
        s.deallocate()
    }

    public var blocksPerToken: Int { columns / 32 }

    /// Quantises `tokens` rows of `columns` floats (row stride `stride`).
    public func quantize(_ x: UnsafePointer<Float>, tokens: Int, columns: Int, stride: Int) {
        precondition(columns % 32 == 0 && tokens * columns <= capacity)
        self.tokens = tokens
        self.columns = columns
        for t in 0..<tokens {
            for b in 0..<columns / 32 {
                Self.quantizeBlock(x + t * stride + b * 32, qs + t * columns + b * 32, d + t * (columns / 32) + b, s + t * (columns / 32) + b)
            }
        }
    }

    /// Follows llama.cpp's rounding so results track the reference: quants are x × 127 / max|x|
    /// rounded half to even, and the scale and sum are stored rounded to half precision (its
    /// Q8_0/Q8_1 blocks hold them as fp16).
    @inline(__always) static func quantizeBlock(_ x: UnsafePointer<Float>, _ q: UnsafeMutablePointer<Int8>, _ d: UnsafeMutablePointer<Float>, _ s: UnsafeMutablePointer<Float>) {
        let raw = UnsafeRawPointer(x)
        var v = (raw.loadUnaligned(as: SIMD16<Float>.self), raw.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
        let amax = max(v.0.replacing(with: -v.0, where: v.0 .< 0).max(), v.1.replacing(with: -v.1, where: v.1 .< 0).max())
        let inv: Float = amax != 0 ? 127 / amax : 0
        // Clamping (and NaN to 0) only matters for broken weights: it keeps the conversion defined.
        v.0 = (v.0 * inv).rounded(.toNearestOrEven).clamped(lowerBound: SIMD16(repeating: -127), upperBound: SIMD16(repeating: 127))
        v.1 = (v.1 * inv).rounded(.toNearestOrEven).clamped(lowerBound: SIMD16(repeating: -127), upperBound: SIMD16(repeating: 127))
        v.0.replace(with: 0, where: v.0 .!= v.0)
        v.1.replace(with: 0, where: v.1 .!= v.1)
        let q0 = SIMD16<Int8>(truncatingIfNeeded: SIMD16<Int32>(v.0))
        let q1 = SIMD16<Int8>(truncatingIfNeeded: SIMD16<Int32>(v.1))
        UnsafeMutableRawPointer(q).storeBytes(of: q0, as: SIMD16<Int8>.self)
        UnsafeMutableRawPointer(q).storeBytes(of: q1, toByteOffset: 16, as: SIMD16<Int8>.self)
        let scale = Float(Float16(amax / 127))
        d.pointee = scale
        s.pointee = Float(Float16(scale * (v.0.sum() + v.1.sum())))
    }
}
