import Testing
@testable import JSONModel

/// `JSONValue(parsing:)`'s whole-document fast path (JSONDocumentParser) against the plain
/// stream parser: for every input both accept the same documents and build the same value, to
/// the number kinds and member order; where they reject, `JSONValue(parsing:)` reports the
/// stream parser's error, offset and all.
@Suite struct JSONDocumentParserTests {
    /// Same case, same contents, same member order: stricter than `==`, which is JSON equality
    /// (`.integer(2) == .number(2)`, objects unordered).
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x.bitPattern == y.bitPattern
        case (.rawNumber(let x), .rawNumber(let y)): x == y
        case (.string(let x), .string(let y)): Array(x.utf8) == Array(y.utf8)
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case (.object(let x), .object(let y)): x.keys == y.keys && zip(x, y).allSatisfy { identical($0.value, $1.value) }
        default: false
        }
    }

    static func streamParse(_ bytes: [UInt8], keepingNumberText: Bool) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) in
            var parser = JSONStreamParser(keepingNumberText: keepingNumberText)
            try parser.feed(bytes)
            return try parser.finish()
        }
    }

    /// Checks one input both ways; returns whether the stream parser accepted it.
    @discardableResult
    static func agree(_ bytes: [UInt8], keepingNumberText: Bool, _ comment: @autoclosure () -> String = "") -> Bool {
        let fast = bytes.withUnsafeBufferPointer { JSONDocumentParser.parse($0, keepingNumberText: keepingNumberText) }
        let plain = streamParse(bytes, keepingNumberText: keepingNumberText)
        let text = String(decoding: bytes, as: UTF8.self)
        switch (fast, plain) {
        case (let fast?, .success(let plain)):
            #expect(identical(fast, plain), "\(text): fast \(fast) stream \(plain) \(comment())")
        case (nil, .failure(let error)):
            #expect(throws: error) { try JSONValue(parsing: bytes, keepingNumberText: keepingNumberText) }
        case (let fast?, .failure(let error)):
            Issue.record("\(text): the fast path accepts \(fast); the stream parser rejects it: \(error) \(comment())")
        case (nil, .success(let plain)):
            Issue.record("\(text): the fast path rejects what the stream parser reads as \(plain) \(comment())")
        }
        if case .success = plain { return true } else { return false }
    }

    /// The value's text with whitespace of every kind between its tokens, never inside them.
    static func spaced(_ value: JSONValue, _ random: inout SplitMix64) -> String {
        let blanks = ["", " ", "\n", "\t", "\r\n  "]
        func blank() -> String { blanks[Int(random.next() % UInt64(blanks.count))] }
        switch value {
        case .array(let elements):
            return "[" + blank() + elements.map { spaced($0, &random) + blank() }.joined(separator: "," + blank()) + "]"
        case .object(let object):
            let members = object.map { JSONValue.string($0.key).jsonText + blank() + ":" + blank() + spaced($0.value, &random) + blank() }
            return "{" + blank() + members.joined(separator: "," + blank()) + "}"
        default:
            return value.jsonText
        }
    }

    @Test func randomDocumentsReadTheSameBothWays() {
        var random = SplitMix64(seed: 21)
        for round in 0..<600 {
            let value = JSONParserFuzzTests.randomValue(&random)
            let text = round % 2 == 0 ? value.jsonText : Self.spaced(value, &random)
            for keepingNumberText in [false, true] {
                #expect(Self.agree(Array(text.utf8), keepingNumberText: keepingNumberText), "round \(round)")
            }
        }
    }

    @Test func mutatedDocumentsAreAcceptedAndRejectedAlike() {
        var random = SplitMix64(seed: 22)
        var accepted = 0, rejected = 0
        for round in 0..<4000 {
            var bytes = Array(Self.spaced(JSONParserFuzzTests.randomValue(&random), &random).utf8)
            JSONParserFuzzTests.mutate(&bytes, &random, inserting: "{}[]\",:\\0-e.u tfn")
            if Self.agree(bytes, keepingNumberText: round % 2 == 1, "round \(round)") { accepted += 1 } else { rejected += 1 }
        }
        // Both outcomes occur often enough for the comparison to mean something.
        #expect(accepted > 300 && rejected > 1500, "accepted \(accepted), rejected \(rejected)")
    }

    @Test(arguments: [
        // Numbers: grammar, Int64's edges, exponents, out of range.
        "0", "-0", "01", "-01", "1.", "1.e2", ".5", "-", "+1", "1e", "1e+", "1E-07", "0.0", "-0.5e-3", "3.25",
        "123456789012345678", "1234567890123456789", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "12345678901234567890", "1e400", "-1e400", "[1,2e1,-3.5]",
        // Strings: escapes, surrogates, control characters, UTF-8 in and around escapes.
        #""""#, #""\u0000""#, #""a\"b\\c\/d\be\ff\ng\rh\ti""#, #""\u00e9\u00E9""#, #""\ud83d\ude00""#, #""\ud83d""#,
        #""\ud83dx""#, #""\ud83d\u0041""#, #""\udc00""#, #""\u12""#, #""\u12G4""#, #""\x""#, "\"\u{01}\"", "\"tab\there\"",
        "\"é😀\\n日本\"", "\"unterminated", "\"\\", "\"ends in escape\\u00",
        // Literals, containers, whitespace, trailing data.
        "true", "false", "null", "tru", "nul", "truex", "[true false]", "[]", "{}", " [ ] ", "[,]", "[1,]", "{\"a\":1,}",
        "{\"a\" 1}", "{\"a\":}", "{a:1}", "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":{\"a\":2}}", "[1] x", "[1]]", "\u{FEFF}1",
        "", " ", "\n\t\r ",
    ])
    func edgeCasesReadTheSameBothWays(text: String) {
        for keepingNumberText in [false, true] {
            Self.agree(Array(text.utf8), keepingNumberText: keepingNumberText)
        }
    }

    @Test func invalidUTF8IsRejectedBothWays() {
        let cases: [[UInt8]] = [
            [0x22, 0x61, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x22, 0xE2, 0x82], [0x22, 0x5C, 0x6E, 0xFF, 0x22], [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22],
        ]
        for bytes in cases { Self.agree(bytes, keepingNumberText: false) }
    }

    @Test func nestingIsBoundedAtTheSameDepth() {
        let limit = JSONStreamParser.maximumNesting
        for depth in [limit - 1, limit, limit + 1] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(Self.agree(Array(text.utf8), keepingNumberText: false) == (depth <= limit), "depth \(depth)")
            let objects = String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            #expect(Self.agree(Array(objects.utf8), keepingNumberText: false) == (depth <= limit), "depth \(depth)")
        }
    }

    @Test func largeObjectsKeepOrderAndRejectDuplicatesPastTheHashIndex() {
        let members = (0..<40).map { #""m\#($0)":\#($0)"# }
        let text = "{" + members.joined(separator: ",") + "}"
        #expect(Self.agree(Array(text.utf8), keepingNumberText: false))
        let duplicate = "{" + (members + [#""m3":0"#]).joined(separator: ",") + "}"
        #expect(!Self.agree(Array(duplicate.utf8), keepingNumberText: false))
    }

    @Test func everyEntryPointTakesTheSamePath() throws {
        let text = #"{"n":[1,2.5,12345678901234567890],"s":"\u00e9"}"#
        let expected = try #require(Array(text.utf8).withUnsafeBufferPointer { JSONDocumentParser.parse($0, keepingNumberText: true) })
        #expect(Self.identical(try JSONValue(parsing: text, keepingNumberText: true), expected))
        #expect(Self.identical(try JSONValue(parsing: Array(text.utf8), keepingNumberText: true), expected))
        // A collection without contiguous storage is copied into one first.
        #expect(Self.identical(try JSONValue(parsing: AnyCollection(text.utf8), keepingNumberText: true), expected))
        #expect(Self.identical(try JSONValue(parsing: text.utf8[...], keepingNumberText: true), expected))
    }
}
