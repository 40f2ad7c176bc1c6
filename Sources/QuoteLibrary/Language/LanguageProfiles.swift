import Foundation

/// The character n-gram profiles the language identifier scores against: for each of 55
/// languages, how often each 1-, 2- and 3-gram occurred in its Wikipedia text. They are the
/// profiles of the `langdetect` package, fetched and converted at set-up
/// (`make language-profiles`, scripts/language-profiles.py, whose header documents the layout).
public struct LanguageProfiles: Sendable {
    /// The languages the quote library tells apart; text in any other profile's language is `other`.
    static let languages = ["en", "de", "es", "fr", "it", "pt"]

    /// Where set-up writes the file, under the checkout (or installation) root.
    public static let relativePath = "models/language-profiles.bin"
    /// Names the file instead of the search beside the running binary.
    public static let environmentVariable = "TANDEM_LANGUAGE_PROFILES"

    static let magic = Array("TLANGID1".utf8)
    static let headerSize = 24

    /// Profile codes ("af" … "zh-tw"), in file order.
    public let codes: [String]
    /// Per profile, how many 1-, 2- and 3-grams it counted: `totals[3 * language + n - 1]`.
    let totals: [Double]
    /// Each n-gram's scalars packed 21 bits apiece (see `NGramKey`), ascending.
    let keys: [UInt64]
    /// N-gram `i` owns entries `starts[i] ..< starts[i + 1]`.
    let starts: [UInt32]
    let entryCounts: [UInt32]
    let entryLanguages: [UInt8]
    /// Open-addressing index into `keys` (-1 = empty), built at load: one or two probes per
    /// lookup where a binary search took 17.
    private let slots: [Int32]

    /// Reads and checks the whole file: size, checksum, order and ranges. Throws an error naming
    /// the file and what is wrong with it.
    public init(contentsOf url: URL) throws(LanguageProfilesError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw LanguageProfilesError(path: path, "is missing (run `make language-profiles`)")
        }
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw LanguageProfilesError(path: path, "cannot be read: \(error.localizedDescription)")
        }
        let fail = { (problem: String) in LanguageProfilesError(path: path, problem) }
        let parsed: Result<LanguageProfiles, LanguageProfilesError> = data.withUnsafeBytes { raw in
            Result { () throws(LanguageProfilesError) in try LanguageProfiles(raw, fail: fail) }
        }
        self = try parsed.get()
    }

    private init(_ raw: UnsafeRawBufferPointer, fail: (String) -> LanguageProfilesError) throws(LanguageProfilesError) {
        guard raw.count >= Self.headerSize, Array(raw[0..<8]) == Self.magic else {
            throw fail("is not a language profile file (no TLANGID1 header; run `make language-profiles`)")
        }
        func u32(_ offset: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian) }
        let (languageCount, keyCount, entryCount, checksum) = (u32(8), u32(12), u32(16), UInt32(u32(20)))
        let codesAt = Self.headerSize
        let totalsAt = codesAt + 8 * languageCount
        let keysAt = totalsAt + 24 * languageCount
        let startsAt = keysAt + 8 * keyCount
        let countsAt = startsAt + 4 * (keyCount + 1)
        let languagesAt = countsAt + 4 * entryCount
        guard languagesAt + entryCount == raw.count else {
            throw fail("has \(raw.count) bytes; its header (\(languageCount) languages, \(keyCount) n-grams, "
                       + "\(entryCount) entries) needs \(languagesAt + entryCount): truncated or corrupt")
        }
        var hash: UInt32 = 0x811C_9DC5
        for byte in raw[Self.headerSize...] { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        guard hash == checksum else { throw fail("fails its checksum: corrupt (run `make language-profiles` again)") }

        func array<T: FixedWidthInteger>(_ offset: Int, _ count: Int, _: T.Type) -> [T] {
            (0..<count).map { raw.loadUnaligned(fromByteOffset: offset + $0 * MemoryLayout<T>.size, as: T.self).littleEndian }
        }
        codes = (0..<languageCount).map { index in
            let bytes = raw[(codesAt + 8 * index)..<(codesAt + 8 * index + 8)].prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        totals = array(totalsAt, 3 * languageCount, UInt64.self).map { Double($0) }
        keys = array(keysAt, keyCount, UInt64.self)
        starts = array(startsAt, keyCount + 1, UInt32.self)
        entryCounts = array(countsAt, entryCount, UInt32.self)
        entryLanguages = Array(raw[languagesAt...])
        var size = 1
        while size < 2 * keyCount { size <<= 1 }
        var slots = [Int32](repeating: -1, count: size)
        for (index, key) in keys.enumerated() {
            var slot = Self.slot(of: key, mask: size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(index)
        }
        self.slots = slots

        let missing = Self.languages.filter { !codes.contains($0) }
        guard missing.isEmpty else { throw fail("has no profile for \(missing.joined(separator: ", "))") }
        guard totals.allSatisfy({ $0 > 0 }) else { throw fail("has a profile with no n-grams counted") }
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { throw fail("has n-grams out of order") }
        guard starts.first == 0, starts.last == UInt32(entryCount), zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw fail("has inconsistent entry ranges")
        }
        guard entryLanguages.allSatisfy({ Int($0) < languageCount }), entryCounts.allSatisfy({ $0 > 0 }) else {
            throw fail("has an entry outside its \(languageCount) languages or with a zero count")
        }
    }

    private static func slot(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The entries of an n-gram, or nil when no profile has it.
    func entries(of key: UInt64) -> Range<Int>? {
        let mask = slots.count - 1
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if keys[index] == key { return Int(starts[index])..<Int(starts[index + 1]) }
            slot = (slot + 1) & mask
        }
    }

    /// The file this process uses: the one `TANDEM_LANGUAGE_PROFILES` names, else
    /// `models/language-profiles.bin` in the running binary's folder or the nearest folder above
    /// it that has one (in a checkout, `.build/release/tandem` and the test bundle find the
    /// repo's `models/`). The profiles belong to the program, not to a config.
    public static func defaultLocation() throws(LanguageProfilesError) -> URL {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).standardizedFileURL.deletingLastPathComponent()
        while true {
            let candidate = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            if folder.path == "/" { break }
            folder.deleteLastPathComponent()
        }
        throw LanguageProfilesError(path: relativePath,
                                    "not found beside \(executable) or in any folder above it "
                                    + "(run `make language-profiles`, or set \(environmentVariable))")
    }
}

/// The language profile file is missing, unreadable or corrupt: names the file and the problem.
public struct LanguageProfilesError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    init(path: String, _ problem: String) { (self.path, self.problem) = (path, problem) }
    public var description: String { "language profiles \(path): \(problem)" }
}
