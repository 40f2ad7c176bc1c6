/// A hash table from byte strings to token ids, probed with a buffer slice so lookups in the
/// hot path allocate nothing. Keys are bytes, not `String`s: Swift compares strings by
/// canonical equivalence, which would merge tokens such as "é" and "e\u{301}".
struct ByteStringTable: Sendable {
    private var keyBytes: [UInt8] = []
    private var keyStarts: [Int] = []
    private var keyLengths: [Int32] = []
    private var values: [Int32] = []
    /// Entry index + 1 per slot; 0 is an empty slot.
    private var slots: [Int32]
    private var mask: Int

    init(minimumCapacity: Int) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        mask = size - 1
    }

    /// Token texts to ids (empty texts cannot occur in text and are left out).
    init(tokens: [String]) {
        self.init(minimumCapacity: tokens.count)
        for (id, text) in tokens.enumerated() where !text.isEmpty {
            insert(Array(text.utf8), value: Int32(id))
        }
    }

    /// Inserts or replaces (the last id for a duplicated text wins, as in llama.cpp).
    mutating func insert(_ key: [UInt8], value: Int32) {
        if let slot = key.withUnsafeBufferPointer({ findSlot($0) }), slots[slot] != 0 {
            values[Int(slots[slot]) - 1] = value
            return
        }
        if (values.count + 1) * 2 > slots.count { grow() }
        let slot = key.withUnsafeBufferPointer { findSlot($0) }!
        keyStarts.append(keyBytes.count)
        keyLengths.append(Int32(key.count))
        keyBytes.append(contentsOf: key)
        values.append(value)
        slots[slot] = Int32(values.count)
    }

    func lookup(_ key: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let slot = findSlot(key) else { return nil }
        let entry = Int(slots[slot])
        return entry == 0 ? nil : values[entry - 1]
    }

    func lookup(_ key: [UInt8]) -> Int32? {
        key.withUnsafeBufferPointer { lookup($0) }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func findSlot(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = Int(truncatingIfNeeded: Self.hash(key)) & mask
        return keyBytes.withUnsafeBufferPointer { stored -> Int? in
            while true {
                let entry = Int(slots[index])
                if entry == 0 { return index }
                let length = Int(keyLengths[entry - 1])
                if length == key.count {
                    let start = keyStarts[entry - 1]
                    var equal = true
                    var i = 0
                    while i < length {
                        if stored[start + i] != key[i] { equal = false; break }
                        i += 1
                    }
                    if equal { return index }
                }
                index = (index + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [Int32](repeating: 0, count: size)
        mask = size - 1
        keyBytes.withUnsafeBufferPointer { stored in
            for entry in 0..<values.count {
                let key = UnsafeBufferPointer(rebasing: stored[keyStarts[entry]..<(keyStarts[entry] + Int(keyLengths[entry]))])
                var index = Int(truncatingIfNeeded: Self.hash(key)) & mask
                while slots[index] != 0 { index = (index + 1) & mask }
                slots[index] = Int32(entry + 1)
            }
        }
    }

    /// FNV-1a, 64 bit.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }
}
