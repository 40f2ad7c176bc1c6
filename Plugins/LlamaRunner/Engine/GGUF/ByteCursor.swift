/// Reads little-endian fields from the mapped header, checking every read against the file end.
/// What is being read is described lazily: the text is built only for an error.
struct ByteCursor {
    let base: UnsafeRawPointer
    let size: Int
    let path: String
    var offset: Int = 0

    var remaining: Int { size - offset }

    private func truncated(_ what: String) -> GGUFError {
        GGUFError(.truncatedHeader, path: path, "file ends at byte \(size) while reading \(what) at byte \(offset)")
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type, _ what: @autoclosure () -> String) throws(GGUFError) -> T {
        guard remaining >= MemoryLayout<T>.size else { throw truncated(what()) }
        let v = T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += MemoryLayout<T>.size
        return v
    }

    /// A 64-bit count that must fit, at `minimumItemSize` bytes each, in what is left of the file.
    mutating func count(_ what: @autoclosure () -> String, minimumItemSize: Int) throws(GGUFError) -> Int {
        let raw = try read(UInt64.self, what())
        // Counts up to 2^24 (more than any vocabulary or tensor table) that do not fit are read as
        // a cut-off file; larger ones as nonsense.
        guard raw <= UInt64(size / max(minimumItemSize, 1)) || raw <= 1 << 24 else {
            throw GGUFError(.absurdCount, path: path, "\(what()) is \(raw) at byte \(offset - 8), more than the whole file (\(size) bytes) can hold")
        }
        guard Int(raw) * minimumItemSize <= remaining else {
            throw GGUFError(.truncatedHeader, path: path, "\(what()) is \(raw) at byte \(offset - 8), but the file ends \(remaining) bytes later")
        }
        return Int(raw)
    }

    /// A UTF-8 string of at most `maxLength` bytes. The length is checked before the bytes are
    /// looked at, so a name of a megabyte is refused at the cost of reading its length.
    mutating func string(_ what: @autoclosure () -> String, maxLength: Int = Int.max) throws(GGUFError) -> String {
        if remaining >= 8, case let claimed = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
           claimed > UInt64(maxLength) {
            throw GGUFError(.nameTooLong, path: path, "\(what()) at byte \(offset) is \(claimed) bytes long, expected at most \(maxLength)")
        }
        let length = try count("\(what()) length", minimumItemSize: 1)
        let bytes = UnsafeRawBufferPointer(start: base + offset, count: length)
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw GGUFError(.invalidString, path: path, "\(what()) at byte \(offset) is not valid UTF-8")
        }
        offset += length
        return s
    }
}
