/// The dot product of two float vectors, the novelty gate's one hot loop (the library scan, and
/// the token alignment's state against state) and the register's hidden layer: eight lanes at a
/// time with two accumulators, the tail one value at a time. `dotByReference` is the plain loop it is tested against
/// (`NoveltyLibraryTests`); the two differ only by float rounding.
enum FloatDot {
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let vectorEnd = count - count % 16
        let p = UnsafeRawPointer(a), q = UnsafeRawPointer(b)
        var first = SIMD8<Float>(), second = SIMD8<Float>()
        var column = 0
        while column < vectorEnd {
            first += p.loadUnaligned(fromByteOffset: column * 4, as: SIMD8<Float>.self)
                * q.loadUnaligned(fromByteOffset: column * 4, as: SIMD8<Float>.self)
            second += p.loadUnaligned(fromByteOffset: column * 4 + 32, as: SIMD8<Float>.self)
                * q.loadUnaligned(fromByteOffset: column * 4 + 32, as: SIMD8<Float>.self)
            column += 16
        }
        var dot = (first + second).sum()
        while column < count {
            dot += a[column] * b[column]
            column += 1
        }
        return dot
    }

    static func dotByReference(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var dot: Float = 0
        for column in 0..<count { dot += a[column] * b[column] }
        return dot
    }
}
