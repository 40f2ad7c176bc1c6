/// A GGUF (version 2 or 3) model file: its metadata and tensor table, with the weights left in a
/// read-only memory mapping. Every count, size and offset is checked before it is used.
public final class GGUFFile: @unchecked Sendable {
    public let path: String
    public let version: UInt32
    /// Metadata in file order (keys are unique).
    public let metadataKeys: [String]
    public let metadata: [String: GGUFValue]
    /// Tensors in file order; `tensor(named:)` looks them up.
    public let tensors: [GGUFTensorInfo]
    public let alignment: Int
    public let dataOffset: Int
    let mapping: MappedFile
    private let tensorIndex: [String: Int]

    static let magic: UInt32 = 0x4655_4747  // "GGUF" little-endian
    static let maxDimensions = 4
    /// Upper bound on any one tensor's elements: far above any model a CPU runner can hold.
    static let maxElements = 1 << 40

    /// The GGUF format's limits on names: a tensor name at most 64 bytes, a key at most 65,535.
    static let maxTensorNameBytes = 64
    static let maxKeyBytes = 65_535

    public convenience init(path: String) throws(GGUFError) {
        try self.init(mapping: MappedFile(path: path))
    }

    /// A file's bytes already in memory (copied), named `path` in errors.
    public convenience init(bytes: [UInt8], path: String) throws(GGUFError) {
        try self.init(mapping: MappedFile(copying: bytes, path: path))
    }

    init(mapping: MappedFile) throws(GGUFError) {
        let path = mapping.path
        self.path = path
        self.mapping = mapping
        var cursor = ByteCursor(base: mapping.base, size: mapping.size, path: path)
        guard mapping.size >= 4 else { throw GGUFError(.truncatedHeader, path: path, "only \(mapping.size) bytes, too short for a GGUF header") }
        let magic = try cursor.read(UInt32.self, "magic")
        guard magic == Self.magic else {
            throw GGUFError(.wrongMagic, path: path, "not a GGUF file (magic 0x\(String(magic, radix: 16)), expected \"GGUF\")")
        }
        version = try cursor.read(UInt32.self, "version")
        guard version == 2 || version == 3 else {
            throw GGUFError(.unsupportedVersion, path: path, "GGUF version \(version) is not supported (2 and 3 are)")
        }
        // A tensor info takes at least 8 (name length) + 4 (dims) + 4 (type) + 8 (offset) bytes;
        // a metadata entry at least 8 (key length) + 4 (type) + 1 (value).
        let tensorCount = try cursor.count("tensor count", minimumItemSize: 24)
        let kvCount = try cursor.count("metadata entry count", minimumItemSize: 13)

        var keys: [String] = []
        var metadata: [String: GGUFValue] = [:]
        keys.reserveCapacity(kvCount)
        for i in 0..<kvCount {
            let key = try cursor.string("metadata key #\(i)", maxLength: Self.maxKeyBytes)
            guard !key.isEmpty else {
                throw GGUFError(.invalidName, path: path, "metadata key #\(i) at byte \(cursor.offset - 8) is empty")
            }
            try Self.checkName(key, "metadata key #\(i)", path: path)
            let value = try Self.readValue(&cursor, key: key, depth: 0)
            guard metadata.updateValue(value, forKey: key) == nil else {
                throw GGUFError(.duplicateKey, path: path, "metadata key \"\(key)\" appears twice")
            }
            keys.append(key)
        }
        metadataKeys = keys
        self.metadata = metadata

        var alignment = 32
        if let a = metadata["general.alignment"] {
            guard let v = a.integer, v > 0, v <= 1 << 16, v & (v - 1) == 0 else {
                throw GGUFError(.absurdCount, path: path, "general.alignment \(a.summary) is not a power of two up to 65536")
            }
            alignment = Int(v)
        }
        self.alignment = alignment

        struct RawTensor { let name: String; let dims: [Int]; let type: TensorType; let offset: Int; let bytes: Int }
        var raw: [RawTensor] = []
        raw.reserveCapacity(tensorCount)
        var index: [String: Int] = [:]
        for i in 0..<tensorCount {
            let name = try cursor.string("tensor #\(i) name", maxLength: Self.maxTensorNameBytes)
            try Self.checkName(name, "tensor #\(i) name", path: path)
            let nDims = try cursor.read(UInt32.self, "tensor \(name) dimension count")
            guard nDims >= 1, nDims <= Self.maxDimensions else {
                throw GGUFError(.absurdDimensions, path: path, "tensor \(name) has \(nDims) dimensions (1...\(Self.maxDimensions) allowed)")
            }
            var dims: [Int] = []
            var elements = 1
            for d in 0..<Int(nDims) {
                let dim = try cursor.read(UInt64.self, "tensor \(name) dimension \(d)")
                guard dim >= 1, dim <= UInt64(Self.maxElements) else {
                    throw GGUFError(.absurdDimensions, path: path, "tensor \(name) dimension \(d) is \(dim)")
                }
                let (product, overflow) = elements.multipliedReportingOverflow(by: Int(dim))
                guard !overflow, product <= Self.maxElements else {
                    throw GGUFError(.absurdDimensions, path: path, "tensor \(name) has more than \(Self.maxElements) elements")
                }
                elements = product
                dims.append(Int(dim))
            }
            let typeCode = try cursor.read(UInt32.self, "tensor \(name) type")
            guard let type = TensorType(rawValue: typeCode) else {
                throw GGUFError(.unsupportedTensorType, path: path, "tensor \(name) has type \(TensorType.unsupportedName(typeCode)), which this engine does not support")
            }
            guard dims[0] % type.blockSize == 0 else {
                throw GGUFError(.absurdDimensions, path: path, "tensor \(name) row length \(dims[0]) is not a multiple of the \(type.name) block size \(type.blockSize)")
            }
            let offset = try cursor.read(UInt64.self, "tensor \(name) offset")
            guard offset <= UInt64(mapping.size) else {
                throw GGUFError(.offsetPastEnd, path: path, "tensor \(name) offset \(offset) is past the end of the file (\(mapping.size) bytes)")
            }
            guard Int(offset) % alignment == 0 else {
                throw GGUFError(.misalignedTensor, path: path, "tensor \(name) offset \(offset) is not a multiple of the alignment \(alignment)")
            }
            guard index.updateValue(i, forKey: name) == nil else {
                throw GGUFError(.duplicateTensor, path: path, "tensor \(name) appears twice")
            }
            raw.append(RawTensor(name: name, dims: dims, type: type, offset: Int(offset), bytes: elements / type.blockSize * type.blockBytes))
        }
        let dataOffset = (cursor.offset + alignment - 1) / alignment * alignment
        self.dataOffset = dataOffset
        var tensors: [GGUFTensorInfo] = []
        tensors.reserveCapacity(raw.count)
        for t in raw {
            let (start, o1) = dataOffset.addingReportingOverflow(t.offset)
            let (end, o2) = start.addingReportingOverflow(t.bytes)
            guard !o1, !o2, end <= mapping.size else {
                throw GGUFError(.truncatedTensorData, path: path, "tensor \(t.name) needs bytes \(o1 ? Int.max : start)..<\(o2 ? Int.max : end) but the file has \(mapping.size) bytes")
            }
            tensors.append(GGUFTensorInfo(name: t.name, dimensions: t.dims, type: t.type, fileOffset: start, byteCount: t.bytes))
        }
        try Self.checkNoOverlap(tensors, path: path)
        self.tensors = tensors
        tensorIndex = index
    }

    /// Names are text: no NUL (a C reader would cut the name there) and no other control
    /// character (it would garble `inspect`'s output and every message naming it).
    private static func checkName(_ name: String, _ what: @autoclosure () -> String, path: String) throws(GGUFError) {
        guard let bad = name.utf8.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) else { return }
        let byte = name.utf8[bad]
        let shown = String(decoding: name.utf8.prefix(64), as: UTF8.self).unicodeScalars
            .map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        throw GGUFError(.invalidName, path: path, "\(what()) \"\(shown)\" contains \(byte == 0 ? "NUL" : "control character 0x\(String(byte, radix: 16))") at byte \(name.utf8.distance(from: name.utf8.startIndex, to: bad)) of the name")
    }

    /// Every tensor's bytes are its own: no writer puts two tensors on shared bytes (the same
    /// offset included), so a file that does was crafted or damaged.
    private static func checkNoOverlap(_ tensors: [GGUFTensorInfo], path: String) throws(GGUFError) {
        let byStart = tensors.sorted { $0.fileOffset < $1.fileOffset }
        for (a, b) in zip(byStart, byStart.dropFirst()) where b.fileOffset < a.fileOffset + a.byteCount {
            throw GGUFError(.overlappingTensors, path: path,
                "tensors \(a.name) (bytes \(a.fileOffset)..<\(a.fileOffset + a.byteCount)) and \(b.name) (bytes \(b.fileOffset)..<\(b.fileOffset + b.byteCount)) overlap; each tensor needs bytes of its own")
        }
    }

    private static func readValue(_ c: inout ByteCursor, key: String, depth: Int) throws(GGUFError) -> GGUFValue {
        let code = try c.read(UInt32.self, "type of \(key)")
        guard let type = GGUFValueType(rawValue: code) else {
            throw GGUFError(.invalidValueType, path: c.path, "metadata \(key) has unknown value type \(code)")
        }
        return try readValue(&c, type: type, key: key, depth: depth)
    }

    private static func readValue(_ c: inout ByteCursor, type: GGUFValueType, key: String, depth: Int) throws(GGUFError) -> GGUFValue {
        switch type {
        case .uint8: return .uint8(try c.read(UInt8.self, key))
        case .int8: return .int8(try c.read(Int8.self, key))
        case .uint16: return .uint16(try c.read(UInt16.self, key))
        case .int16: return .int16(try c.read(Int16.self, key))
        case .uint32: return .uint32(try c.read(UInt32.self, key))
        case .int32: return .int32(try c.read(Int32.self, key))
        case .float32: return .float32(Float(bitPattern: try c.read(UInt32.self, key)))
        case .uint64: return .uint64(try c.read(UInt64.self, key))
        case .int64: return .int64(try c.read(Int64.self, key))
        case .float64: return .float64(Double(bitPattern: try c.read(UInt64.self, key)))
        case .bool:
            let b = try c.read(UInt8.self, key)
            guard b <= 1 else { throw GGUFError(.invalidValueType, path: c.path, "metadata \(key) bool has byte value \(b)") }
            return .bool(b == 1)
        case .string: return .string(try c.string(key))
        case .array:
            // Nested arrays are legal GGUF but no model uses more than one level; two is plenty.
            guard depth < 2 else { throw GGUFError(.invalidValueType, path: c.path, "metadata \(key) nests arrays too deeply") }
            let code = try c.read(UInt32.self, "element type of \(key)")
            guard let elementType = GGUFValueType(rawValue: code) else {
                throw GGUFError(.invalidValueType, path: c.path, "metadata \(key) has unknown array element type \(code)")
            }
            let n = try c.count("\(key) array length", minimumItemSize: elementType.minimumSize)
            var values: [GGUFValue] = []
            values.reserveCapacity(n)
            for _ in 0..<n { values.append(try readValue(&c, type: elementType, key: key, depth: depth + 1)) }
            return .array(elementType, values)
        }
    }

    // MARK: lookup

    public func tensor(named name: String) -> GGUFTensorInfo? { tensorIndex[name].map { tensors[$0] } }

    /// The bytes of a tensor inside the mapping (valid while this file is alive).
    public func data(of tensor: GGUFTensorInfo) -> UnsafeRawPointer { mapping.base + tensor.fileOffset }

    public func string(_ key: String) throws(GGUFError) -> String? {
        guard let v = metadata[key] else { return nil }
        guard let s = v.string else { throw wrongType(key, v, "string") }
        return s
    }

    public func integer(_ key: String) throws(GGUFError) -> Int64? {
        guard let v = metadata[key] else { return nil }
        guard let i = v.integer else { throw wrongType(key, v, "integer") }
        return i
    }

    public func float(_ key: String) throws(GGUFError) -> Double? {
        guard let v = metadata[key] else { return nil }
        guard let f = v.float else { throw wrongType(key, v, "number") }
        return f
    }

    public func bool(_ key: String) throws(GGUFError) -> Bool? {
        guard let v = metadata[key] else { return nil }
        guard let b = v.bool else { throw wrongType(key, v, "bool") }
        return b
    }

    public func array(_ key: String) throws(GGUFError) -> [GGUFValue]? {
        guard let v = metadata[key] else { return nil }
        guard let a = v.array else { throw wrongType(key, v, "array") }
        return a
    }

    func wrongType(_ key: String, _ v: GGUFValue, _ expected: String) -> GGUFError {
        GGUFError(.wrongMetadataType, path: path, "metadata \(key) is \(v.type), expected \(expected)")
    }

    func missing(_ key: String) -> GGUFError {
        GGUFError(.missingMetadata, path: path, "metadata \(key) is missing")
    }
}
