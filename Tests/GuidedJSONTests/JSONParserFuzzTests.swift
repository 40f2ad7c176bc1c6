import Testing
import GuidedJSON
import JSONModel

/// Hostile and chunked input: the parser never crashes, errors point inside the text, and
/// feeding a document in pieces gives the same value as feeding it whole.
@Suite struct JSONParserFuzzTests {
    static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch random.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 3: return .number(Double(Int64(bitPattern: random.next()) % 100_000) / 64)
        case 4:
            let pieces = ["a", "é", "\"", "\\", "\n", "😀", " ", "\u{01}", "/"]
            return .string((0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        case 5: return .array((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<Int(random.next() % 4) { object["k\(index)\(random.next() % 3)"] = randomValue(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    /// One to three random edits: a byte replaced, a byte removed, or a byte of `inserted` put in.
    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64, inserting inserted: String = "{}[]\",:\\0-e.") {
        let insertable = Array(inserted.utf8)
        for _ in 0..<(1 + Int(random.next() % 3)) where !bytes.isEmpty {
            let position = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.remove(at: position)
            default: bytes.insert(insertable[Int(random.next() % UInt64(insertable.count))], at: position)
            }
        }
    }

    @Test func chunkedFeedingMatchesWholeParsing() throws {
        var random = SplitMix64(seed: 9)
        for _ in 0..<300 {
            let value = Self.randomValue(&random)
            let bytes = Array(value.jsonText.utf8)
            #expect(try JSONValue(parsing: bytes) == value)
            var parser = JSONStreamParser()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + Int(random.next() % 5))
                try parser.feed(bytes[start..<end])
                _ = parser.snapshot()
                start = end
            }
            let snapshot = parser.snapshot()
            let finished = try parser.finish()
            #expect(finished == value)
            if case .integer = value {} else if case .number = value {} else {
                #expect(snapshot.isComplete && snapshot.value == value)
            }
        }
    }

    @Test func mutatedDocumentsNeverCrashAndErrorsPointInside() {
        var random = SplitMix64(seed: 10)
        var rejected = 0
        for _ in 0..<2000 {
            var bytes = Array(Self.randomValue(&random).jsonText.utf8)
            Self.mutate(&bytes, &random)
            do {
                _ = try JSONValue(parsing: bytes)
            } catch let error as JSONParseError {
                rejected += 1
                #expect(error.code == .syntax || error.code == .truncated)
                #expect((0...bytes.count).contains(error.byteOffset))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(rejected > 1000)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }
}
