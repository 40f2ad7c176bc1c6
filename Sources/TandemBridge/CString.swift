import CTandemABI

extension String {
    /// Decodes a borrowed `tandem_str`; nil when its bytes are not valid UTF-8.
    public init?(validating str: tandem_str) {
        guard str.size > 0, let data = str.data else {
            if str.size == 0 { self = ""; return }
            return nil
        }
        let bytes = UnsafeRawBufferPointer(start: data, count: str.size).bindMemory(to: UInt8.self)
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}

/// Writes `text` NUL-terminated into a caller buffer of `capacity` bytes, truncating on a UTF-8
/// character boundary. Does nothing when the buffer is NULL or empty.
public func writeCString(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int) {
    guard let buffer, capacity > 0 else { return }
    var utf8 = Array(text.utf8)
    if utf8.count > capacity - 1 {
        var end = capacity - 1
        // Step back over continuation bytes so a character is never cut in half.
        while end > 0 && (utf8[end] & 0xC0) == 0x80 { end -= 1 }
        utf8.removeSubrange(end...)
    }
    utf8.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: source.count)
    }
    buffer[utf8.count] = 0
}

/// Owns copies of strings for as long as a C structure borrows them.
///
/// The host builds a `tandem_request` from Swift values; every `tandem_str` in it points into
/// an arena that lives until the call returns.
final class CStringArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    func str(_ text: String) -> tandem_str {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count > 0 else { return tandem_str(data: nil, size: 0) }
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
            block.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            blocks.append(block)
            return tandem_str(data: block.assumingMemoryBound(to: CChar.self), size: bytes.count)
        }
    }

    func cString(_ text: String) -> UnsafePointer<CChar> {
        let utf8 = Array(text.utf8CString)
        let block = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        block.initialize(from: utf8, count: utf8.count)
        blocks.append(UnsafeMutableRawPointer(block))
        return UnsafePointer(block)
    }

    func array<T>(_ values: [T]) -> UnsafePointer<T>? {
        guard !values.isEmpty else { return nil }
        let block = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        block.initialize(from: values, count: values.count)
        blocks.append(UnsafeMutableRawPointer(block))
        return UnsafePointer(block)
    }

    func value<T>(_ value: T) -> UnsafePointer<T> {
        let block = UnsafeMutablePointer<T>.allocate(capacity: 1)
        block.initialize(to: value)
        blocks.append(UnsafeMutableRawPointer(block))
        return UnsafePointer(block)
    }

    deinit {
        // Only trivial C structs and bytes are stored here, so deallocation needs no deinitialize.
        for block in blocks { block.deallocate() }
    }
}

/// True when a sized C struct written with `structSize` bytes contains `field` (the Swift form
/// of the header's `TANDEM_HAS_FIELD`).
@inline(__always)
public func structHasField<T>(_ pointer: UnsafePointer<T>, structSize: UInt32, _ field: PartialKeyPath<T>) -> Bool {
    guard let offset = MemoryLayout<T>.offset(of: field) else { return false }
    return Int(structSize) >= offset + fieldSize(of: field)
}

@inline(__always)
private func fieldSize<T>(of field: PartialKeyPath<T>) -> Int {
    func size<V>(_: V.Type) -> Int { MemoryLayout<V>.size }
    return _openExistential(type(of: field).valueType, do: size)
}

/// Calls `body` with a C array of text pairs (e.g. `open_model`'s settings), valid until `body`
/// returns. An empty list is passed as NULL with count 0.
public func withCKeyValuePairs<R>(_ pairs: [(key: String, value: String)], _ body: (UnsafePointer<tandem_kv>?, Int) throws -> R) rethrows -> R {
    let arena = CStringArena()
    let cPairs = pairs.map { tandem_kv(key: arena.str($0.key), value: arena.str($0.value)) }
    return try withExtendedLifetime(arena) { try body(arena.array(cPairs), cPairs.count) }
}

/// Calls `body` with a C array of `tandem_str` (e.g. `embed`'s inputs), valid until `body`
/// returns. An empty list is passed as NULL with count 0.
public func withCStrArray<R>(_ texts: [String], _ body: (UnsafePointer<tandem_str>?, Int) throws -> R) rethrows -> R {
    let arena = CStringArena()
    let strs = texts.map { arena.str($0) }
    return try withExtendedLifetime(arena) { try body(arena.array(strs), strs.count) }
}
