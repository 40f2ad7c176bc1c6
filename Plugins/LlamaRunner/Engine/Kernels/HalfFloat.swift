/// Half-float to float conversion through a table: the software conversion is a function call
/// per value, too slow for the two scales of every 32-weight block.
enum HalfFloat {
    nonisolated(unsafe) static let table: UnsafeMutablePointer<Float> = {
        let t = UnsafeMutablePointer<Float>.allocate(capacity: 1 << 16)
        for i in 0..<(1 << 16) { t[i] = Float(Float16(bitPattern: UInt16(i))) }
        return t
    }()

    @inline(__always) static func load(_ p: UnsafeRawPointer, _ offset: Int = 0) -> Float {
        table[Int(p.loadUnaligned(fromByteOffset: offset, as: UInt16.self))]
    }
}
