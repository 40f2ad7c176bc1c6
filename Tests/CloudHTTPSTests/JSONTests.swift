@testable import CloudHTTPSCore
import JSONModel
import Testing

@Suite struct JSONTests {
    @Test func roundTripKeepsOrderNumbersAndEscapes() throws {
        let text = #"{"z":1,"a":[true,false,null,-0.5e-3,12345678901234567890],"s":"q\"\\\/\n\t\u00e9\ud83d\ude00","e":{}}"#
        let value = try JSONValue(parsing: text, keepingNumberText: true)
        #expect(value["s"]?.stringValue == "q\"\\/\n\té😀")
        #expect(value["a"]?[4] == .rawNumber("12345678901234567890"))
        #expect(value.objectValue?.map(\.key) == ["z", "a", "s", "e"])
        #expect(try JSONValue(parsing: value.jsonText, keepingNumberText: true) == value)
        #expect(value.jsonText == #"{"z":1,"a":[true,false,null,-0.5e-3,12345678901234567890],"s":"q\"\\/\n\té😀","e":{}}"#)
    }

    @Test(arguments: [
        ("", "ends before it is complete"), ("{\"a\":}", "expected a value"), ("[1,]", "expected a value"),
        ("01", "leading zero"), ("\"\\ud800\"", "expected a low surrogate"), ("{\"a\" 1}", "expected ':'"),
        ("\"a\u{01}\"", "control character"), ("tru", "ends before it is complete"), ("1.", "ends before it is complete"),
    ])
    func malformedInputIsRejectedWithItsOffset(text: String, reason: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text, keepingNumberText: true) }
        do { _ = try JSONValue(parsing: text, keepingNumberText: true) } catch { #expect(error.message.contains(reason), "\(text): \(error)") }
    }

    @Test func invalidUTF8AndDeepNestingAreRejected() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22], keepingNumberText: true) }
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep, keepingNumberText: true) }
    }

    @Test func integersAreReadExactly() throws {
        #expect(try JSONValue(parsing: "42", keepingNumberText: true).integerValue == 42)
        #expect(try JSONValue(parsing: "4.2e1", keepingNumberText: true).integerValue == 42)
        #expect(try JSONValue(parsing: "4.5", keepingNumberText: true).integerValue == nil)
    }
}
