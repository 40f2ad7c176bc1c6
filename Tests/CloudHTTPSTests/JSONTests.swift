@testable import CloudHTTPSCore
import Testing

@Suite struct JSONTests {
    @Test func roundTripKeepsOrderNumbersAndEscapes() throws {
        let text = #"{"z":1,"a":[true,false,null,-0.5e-3,12345678901234567890],"s":"q\"\\\/\n\t\u00e9\ud83d\ude00","e":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value["s"]?.stringValue == "q\"\\/\n\té😀")
        #expect(value["a"]?[4] == .number("12345678901234567890"))
        #expect(value.objectValue?.map(\.key) == ["z", "a", "s", "e"])
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(value.serialized == #"{"z":1,"a":[true,false,null,-0.5e-3,12345678901234567890],"s":"q\"\\/\n\té😀","e":{}}"#)
    }

    @Test(arguments: [
        ("", "unexpected end of input"), ("{\"a\":}", "unexpected character"), ("[1,]", "unexpected character"),
        ("01", "unexpected data after"), ("\"\\ud800\"", "unpaired surrogate"), ("{\"a\" 1}", "expected ':'"),
        ("\"a\u{01}\"", "control character"), ("tru", "unexpected end of input"), ("1.", "invalid number"),
    ])
    func malformedInputIsRejectedWithItsOffset(text: String, reason: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
        do { _ = try JSONParser.parse(text) } catch { #expect(error.reason.contains(reason), "\(text): \(error)") }
    }

    @Test func invalidUTF8AndDeepNestingAreRejected() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
    }

    @Test func integersAreReadExactly() throws {
        #expect(try JSONParser.parse("42").intValue == 42)
        #expect(try JSONParser.parse("4.2e1").intValue == 42)
        #expect(try JSONParser.parse("4.5").intValue == nil)
    }
}
