/// Digit-by-digit range checks: can a number whose text starts with a given prefix still end
/// inside [minimum, maximum]? The automaton allows a digit only if the answer stays yes, so
/// range bounds hold while decoding rather than after.
enum DecimalFeasibility {
    /// The magnitudes |v| of values v in [minimum, maximum] with the given sign, or nil if none.
    static func magnitudes(negative: Bool, minimum: Int64, maximum: Int64) -> ClosedRange<UInt64>? {
        if negative {
            guard minimum <= -1 else { return nil }
            let low: UInt64 = maximum <= -1 ? maximum.magnitude : 1
            return low...minimum.magnitude
        }
        guard maximum >= 0 else { return nil }
        return UInt64(max(minimum, 0))...UInt64(maximum)
    }

    /// Whether some integer whose decimal digits start with those of `prefix` (no leading zero,
    /// `prefix` ≥ 1) has its magnitude in `range`: the candidates are prefix·10^k + r, r < 10^k.
    static func integerPrefixFeasible(_ prefix: UInt64, in range: ClosedRange<UInt64>) -> Bool {
        var scale: UInt64 = 1
        while true {
            let (low, overflow) = prefix.multipliedReportingOverflow(by: scale)
            if overflow || low > range.upperBound { return false }
            let (high, overflowHigh) = low.addingReportingOverflow(scale - 1)
            if overflowHigh || high >= range.lowerBound { return true }
            let (nextScale, scaleOverflow) = scale.multipliedReportingOverflow(by: 10)
            if scaleOverflow { return false }
            scale = nextScale
        }
    }

    /// For decimals: whether the half-open interval [low, high) of magnitudes still reachable
    /// meets `range` = [lower, upper].
    @inline(__always)
    static func intersects(low: Double, high: Double, lower: Double, upper: Double) -> Bool {
        low <= upper && high > lower
    }
}
