/// One C struct written with a chosen `struct_size`, inside a buffer that continues with a guard
/// zone of 0xA5 bytes: whatever lies past the size the plugin may know is garbage to it, and must
/// stay untouched.
final class SizedStruct<T> {
    static var guardByte: UInt8 { 0xA5 }
    static var slack: Int { 64 }

    let raw: UnsafeMutableRawPointer
    let size: Int
    let capacity: Int

    /// `size` bytes of `value` (its own bytes up to its size, garbage beyond), struct_size = size.
    init(_ value: T, size: Int) {
        self.size = size
        capacity = max(size, MemoryLayout<T>.size) + Self.slack
        raw = .allocate(byteCount: capacity, alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: Self.guardByte, count: capacity)
        withUnsafeBytes(of: value) { bytes in
            raw.copyMemory(from: bytes.baseAddress!, byteCount: min(size, MemoryLayout<T>.size))
        }
        raw.storeBytes(of: UInt32(size), as: UInt32.self)
    }

    deinit { raw.deallocate() }

    var pointer: UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }

    /// The struct as T, with only the fields inside `size` meaningful.
    var value: T { pointer.pointee }

    /// True when nothing past what the writer could know was written: past `size` when it is
    /// smaller than the struct, past the struct when `size` is larger.
    var guardIntact: Bool {
        let start = min(size, MemoryLayout<T>.size)
        return (start..<capacity).allSatisfy { raw.load(fromByteOffset: $0, as: UInt8.self) == Self.guardByte }
    }
}

/// Which `struct_size` a struct is written with in a check.
enum StructSize: String, CaseIterable, Sendable, CustomStringConvertible {
    /// sizeof, as this host's header knows it.
    case exact
    /// An older writer's: only the fields up to a documented minimum.
    case smaller
    /// A newer writer's: 64 bytes of unknown fields follow.
    case larger

    var description: String { rawValue }

    func bytes<T>(_: T.Type, smallerEndsAt end: Int) -> Int {
        switch self {
        case .exact: MemoryLayout<T>.size
        case .smaller: end
        case .larger: MemoryLayout<T>.size + 64
        }
    }
}

/// The end offset of a field: the smallest struct_size that contains it.
func end<T, V>(of field: KeyPath<T, V>) -> Int {
    MemoryLayout<T>.offset(of: field)! + MemoryLayout<V>.size
}
