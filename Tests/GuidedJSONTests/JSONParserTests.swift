import Testing
import GuidedJSON
import JSONModel

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #" {"a": [1, -2.5, 3e2, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n", "c": {}} "#)
        #expect(value["a"] == [1, -2.5, 300.0, true, false, nil])
        #expect(value["b"] == .string("x\"é😀\n"))
        #expect(value["c"] == .object(JSONObject()))
        guard case .array(let elements) = value["a"], case .integer(1) = elements[0] else {
            Issue.record("1 is not kept as an exact integer")
            return
        }
    }

    @Test func keepsMemberOrderAndRoundTrips() throws {
        let text = #"{"z":1,"a":"tab\there","m":[{"k":null}],"n":-0.25}"#
        let value = try JSONValue(parsing: text)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "m", "n"])
        #expect(value.jsonText == text)
        #expect(try JSONValue(parsing: value.jsonText) == value)
    }

    @Test(arguments: [
        ("[1,]", 3, "expected a value"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("[01]", 2, "leading zero"),
        ("\"a\u{01}\"", 2, "control character"),
        ("{\"a\":1,\"a\":2}", 9, "duplicate property"),
        ("[1] x", 4, "after the end"),
        ("\"\\x\"", 2, "invalid escape"),
        ("\"\\udc00\"", 6, "lone low surrogate"),
        ("tru e", 3, "expected 'true'"),
        ("[-]", 2, "malformed number"),
    ])
    func reportsTheOffsetOfTheFirstBadByte(text: String, offset: Int, message: String) {
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("\(text) parsed")
        } catch let error as JSONParseError {
            #expect(error.code == .syntax)
            #expect(error.byteOffset == offset, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xC0, 0x80, 0x22]
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
        let surrogate: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]
        do {
            _ = try JSONValue(parsing: surrogate)
            Issue.record("encoded surrogate accepted")
        } catch let error as JSONParseError {
            #expect(error.byteOffset == 2)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func truncatedDocumentsAreTruncatedNotSyntaxErrors() throws {
        for text in ["", "{", "{\"a\":", "[1,2", "\"abc", "tr", "{\"a\":1"] {
            do {
                _ = try JSONValue(parsing: text)
                Issue.record("\(text) parsed")
            } catch let error as JSONParseError {
                #expect(error.code == .truncated, "\(text): \(error)")
                #expect(error.byteOffset == text.utf8.count)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(try JSONValue(parsing: "12") == 12)
    }

    @Test func snapshotsShowCompleteFieldsAndTheStringBeingWritten() throws {
        var parser = JSONStreamParser()
        var snapshots: [JSONSnapshot] = []
        let chunks = [#"{"na"#, #"me":"Whisk"#, #"ers","age":1"#, #"2,"toys":["ba"#, #"ll"],"#, #""ok":tr"#, "ue}"]
        for chunk in chunks {
            try parser.feed(chunk)
            snapshots.append(parser.snapshot())
        }
        #expect(snapshots[0].value == .object(JSONObject()))
        #expect(snapshots[1].value == ["name": "Whisk"])
        #expect(snapshots[1].activePath == JSONPath.root.appending(key: "name"))
        #expect(snapshots[2].value == ["name": "Whiskers"])  // 1 of 12 is not complete yet
        #expect(snapshots[3].value == ["name": "Whiskers", "age": 12, "toys": ["ba"]])
        #expect(snapshots[3].activePath == JSONPath.root.appending(key: "toys").appending(index: 0))
        #expect(snapshots[4].value == ["name": "Whiskers", "age": 12, "toys": ["ball"]])
        #expect(snapshots[5].value == ["name": "Whiskers", "age": 12, "toys": ["ball"]])
        #expect(snapshots[5].isComplete == false)
        #expect(snapshots[6].value == ["name": "Whiskers", "age": 12, "toys": ["ball"], "ok": true])
        #expect(snapshots[6].isComplete)
        #expect(try parser.finish() == snapshots[6].value)
    }

    @Test func snapshotCutsAPartialCharacter() throws {
        var parser = JSONStreamParser()
        try parser.feed([0x5B, 0x22, 0x61, 0xC3])  // ["a + first byte of é
        #expect(parser.snapshot().value == ["a"])
        try parser.feed([0xA9])
        #expect(parser.snapshot().value == ["aé"])
    }
}
