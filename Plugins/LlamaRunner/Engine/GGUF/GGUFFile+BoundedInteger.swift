extension GGUFFile {
    /// The integer at `key` (else `fallback`), which must lie in `range`: a missing key without a
    /// fallback, or a value outside the range, is an error naming the key and the value.
    func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(GGUFError) -> Int {
        guard let v = try integer(key) ?? fallback.map(Int64.init) else { throw missing(key) }
        guard v >= range.lowerBound, v <= range.upperBound else {
            throw GGUFError(.absurdCount, path: path, "\(key) is \(v), outside \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(v)
    }
}
