import Testing
import GuidedJSON
import JSONModel

/// The automaton byte by byte: what it accepts, what it refuses, and what it cannot compile.
@Suite struct JSONAutomatonTests {
    func accepts(_ schema: GenerationSchema, _ text: String) throws -> Bool {
        let automaton = try JSONAutomaton(schema: schema)
        var state = automaton.initialState
        return automaton.advance(&state, bytes: Array(text.utf8)) && automaton.isComplete(state)
    }

    @Test func stringsCountCharactersAndEscapes() throws {
        let schema = GenerationSchema.string(minLength: 2, maxLength: 3)
        #expect(try accepts(schema, #""ab""#))
        #expect(try accepts(schema, #""日本語""#))
        #expect(try accepts(schema, #""a\n\u00e9""#))
        #expect(try !accepts(schema, #""a""#))
        #expect(try !accepts(schema, #""abcd""#))
        #expect(try !accepts(schema, #""a\ud83d""#), "surrogate escapes are refused")
        #expect(try accepts(schema, #""a\uD7FF""#))
        #expect(try !accepts(schema, "\"a\u{01}\""))
        #expect(try !accepts(schema, #""a\x""#))
        let automaton = try JSONAutomaton(schema: schema)
        var state = automaton.initialState
        #expect(!automaton.advance(&state, bytes: [0x22, 0x61, 0xC0]), "overlong UTF-8 lead byte")
        #expect(automaton.advance(&state, bytes: [0x22, 0x61, 0xE6, 0x97]) && !automaton.advance(&state, byte: 0x22), "a split character must finish first")
    }

    @Test func integersAreCheckedDigitByDigit() throws {
        let schema = GenerationSchema.integer(in: -15...1234)
        for good in ["0", "-15", "-9", "7", "1234", "999"] { #expect(try accepts(schema, good), "\(good)") }
        for bad in ["-16", "-0", "01", "1235", "12345", "1.0", "1e3", "+1", "-"] { #expect(try !accepts(schema, bad), "\(bad)") }
        let automaton = try JSONAutomaton(schema: schema)
        var state = automaton.initialState
        #expect(automaton.advance(&state, bytes: Array("123".utf8)))
        #expect(automaton.allowedBytes(state) == Array("01234".utf8), "after 123 only 1230...1234 remain")
        let huge = GenerationSchema.integer()
        #expect(try accepts(huge, String(Int64.max)) && accepts(huge, String(Int64.min)))
        #expect(try !accepts(huge, "9223372036854775808"))
    }

    @Test func numbersStayInRangeWithoutExponents() throws {
        let schema = GenerationSchema.number(in: -0.5...2.25)
        for good in ["0", "2.25", "-0.5", "1.999", "-0.25", "0.0"] { #expect(try accepts(schema, good), "\(good)") }
        for bad in ["2.26", "3", "-0.51", "-1", "1e0", "1.", ".5", "00.1"] { #expect(try !accepts(schema, bad), "\(bad)") }
        #expect(try !accepts(.number(), "1." + String(repeating: "1", count: JSONAutomaton.maximumSignificantDigits)))
    }

    @Test func objectsFollowDeclarationOrderAndSkipOnlyOptionalProperties() throws {
        let schema = GenerationSchema.object(properties: [
            .optional("a", .boolean()), .property("b", .null), .optional("c", .integer()), .optional("d", .integer()),
        ])
        for good in [#"{"b":null}"#, #"{"a":true,"b":null}"#, #"{"b":null,"d":1}"#, #"{"a":false,"b":null,"c":1,"d":2}"#] {
            #expect(try accepts(schema, good), "\(good)")
        }
        for bad in [#"{}"#, #"{"a":true}"#, #"{"b":null,"a":true}"#, #"{"b":null,"d":1,"c":2}"#, #"{"b":null,}"#, #"{ "b":null}"#, #"{"b":null,"e":1}"#] {
            #expect(try !accepts(schema, bad), "\(bad)")
        }
        #expect(try accepts(.object(properties: []), "{}"))
        #expect(try accepts(.object(properties: [.optional("x", .boolean())]), "{}"))
    }

    @Test func arraysEnforceItemCounts() throws {
        let schema = GenerationSchema.array(of: .string(anyOf: ["x", "y"]), count: 1...2)
        #expect(try accepts(schema, #"["x"]"#) && accepts(schema, #"["y","x"]"#))
        #expect(try !accepts(schema, "[]") && !accepts(schema, #"["x","x","x"]"#) && !accepts(schema, #"["z"]"#))
        #expect(try accepts(.array(of: .integer(), maxItems: 0), "[]"))
    }

    @Test func anyOfNeedsDistinctFirstBytes() throws {
        let optional = GenerationSchema.anyOf([.object(properties: [.property("v", .integer())]), .null, .string(), .boolean()])
        for good in [#"{"v":1}"#, "null", #""s""#, "true"] { #expect(try accepts(optional, good), "\(good)") }
        #expect(try !accepts(optional, "1"))
        do {
            _ = try JSONAutomaton(schema: .object(properties: [.property("x", .anyOf([.integer(), .number()]))]))
            Issue.record("compiled an ambiguous anyOf")
        } catch let error as GuidedJSONError {
            #expect(error.code == .unsupportedGuide)
            #expect(error.path?.description == "$.properties.x.anyOf")
        }
    }

    @Test func patternsAreEnforcedCharacterByCharacter() throws {
        let phone = GenerationSchema.string(pattern: #"^\d{3}-\d{4}$"#)
        #expect(try accepts(phone, #""555-1234""#))
        #expect(try !accepts(phone, #""555-12345""#) && !accepts(phone, #""5551234""#) && !accepts(phone, #""x555-1234""#))
        let unanchored = GenerationSchema.string(maxLength: 8, pattern: "colou?r")
        #expect(try accepts(unanchored, #""a color""#) && accepts(unanchored, #""colours""#))
        #expect(try !accepts(unanchored, #""colr""#) && !accepts(unanchored, #""the colour""#), "maxLength 8 still holds")
        let accents = GenerationSchema.string(pattern: #"^(é|ü)+[\\\n]$"#)
        #expect(try accepts(accents, #""éüé\n""#) && accepts(accents, #""é\\""#))
        #expect(try !accepts(accents, #""e\n""#) && !accepts(accents, #""\n""#))
        let automaton = try JSONAutomaton(schema: accents)
        var state = automaton.initialState
        #expect(automaton.advance(&state, bytes: [0x22]))
        #expect(automaton.allowedBytes(state) == [0xC3], "only the lead byte of é and ü")
        #expect(automaton.advance(&state, byte: 0xC3))
        #expect(automaton.allowedBytes(state) == [0xA9, 0xBC])
    }

    /// The pattern automaton against Foundation's regular expressions on random strings.
    @Test(arguments: [
        "^a(b|c)*1?$", "b+c", "^[^a]{2,3}$", "(ab|ba)+$", "^\\d*-?é", "[a-c]{2}|^1", "^.?.?$", "a.c", "^(?:a|é )+b*?$",
    ])
    func patternAutomatonAgreesWithFoundation(pattern: String) throws {
        let schema = GenerationSchema.string(pattern: pattern)
        let automaton = try JSONAutomaton(schema: schema)
        let alphabet = ["a", "b", "c", "1", "-", "é", " "]
        var random = SplitMix64(seed: 42)
        var matched = 0
        for _ in 0..<400 {
            let string = (0..<Int(random.next() % 7)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            var state = automaton.initialState
            let accepted = automaton.advance(&state, bytes: Array(JSONValue.string(string).jsonText.utf8)) && automaton.isComplete(state)
            let valid = schema.violations(of: .string(string)).isEmpty
            #expect(accepted == valid, "\(pattern) on \"\(string)\": automaton \(accepted), Foundation \(valid)")
            if valid { matched += 1 }
        }
        #expect(matched > 0, "\(pattern) matched none of the random strings")
    }

    @Test func patternsAndLengthsThatCannotMeetAreRejected() {
        #expect(throws: GuidedJSONError.self) { try JSONAutomaton(schema: .string(minLength: 5, pattern: "^ab?$")) }
        #expect(throws: GuidedJSONError.self) { try JSONAutomaton(schema: GenerationSchema(.string(.init(choices: ["cat", "cow"], pattern: "^ca")))) }
    }

    @Test(arguments: [
        (#"^(?=a)"#, "$.pattern"), (#"^(a)\1$"#, "$.pattern"), (#"\bword"#, "$.pattern"), (#"a^b"#, "$.pattern"),
        (#"\p{L}+"#, "$.pattern"), (#"a{1,1000}"#, "$.pattern"),
        (#"^(a|b)*a(a|b){20}$"#, "$.pattern"),  // a DFA of about 2^20 states
    ])
    func unsupportedPatternFeaturesAreReportedNotDropped(pattern: String, path: String) {
        do {
            _ = try JSONAutomaton(schema: .string(pattern: pattern))
            Issue.record("compiled \(pattern)")
        } catch let error as GuidedJSONError {
            #expect(error.code == .unsupportedGuide, "\(pattern): \(error)")
            #expect(error.path?.description == path)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func enumsAreSpelledAsTheWriterSpellsThem() throws {
        let schema = GenerationSchema.string(anyOf: ["a\"b", "é", "tab\t"])
        #expect(try accepts(schema, #""a\"b""#) && accepts(schema, #""é""#) && accepts(schema, #""tab\t""#))
        #expect(try !accepts(schema, #""\u00e9""#) && !accepts(schema, #""a""#))
    }

    @Test func statesCompareByContent() throws {
        let automaton = try JSONAutomaton(schema: .array(of: .integer(), maxItems: 5))
        var one = automaton.initialState
        var two = automaton.initialState
        #expect(automaton.advance(&one, bytes: Array("[1,".utf8)) && automaton.advance(&two, bytes: Array("[2,".utf8)))
        #expect(one == two)
        #expect(!automaton.advance(&one, bytes: Array("x".utf8)))
        #expect(one == two, "a refused byte leaves the state unchanged")
    }
}
