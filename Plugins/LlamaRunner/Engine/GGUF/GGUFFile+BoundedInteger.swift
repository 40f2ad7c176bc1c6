extension GGUFFile {
    /// The integer at `key` (else `fallback`), which must lie in `range`: a missing key without a
    /// fallback is `missingKey`; a value outside the range is `invalidHyperparameter`, naming the
    /// key, the value and the range expected.
    func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(GGUFError) -> Int {
        guard let v = try integer(key) ?? fallback.map(Int64.init) else { throw missing(key) }
        guard v >= range.lowerBound, v <= range.upperBound else {
            throw GGUFError(.invalidHyperparameter, path: path, "\(key) is \(v), expected \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(v)
    }
}
