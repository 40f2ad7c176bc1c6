import Foundation
import Testing
@testable import QuoteLibrary

/// JSON numbers 0 and 1 are numbers, not booleans (on Linux `NSNumber(1) is Bool` holds): a
/// judge may score 1, a tool call may ask for one result.
@Suite struct JSONBooleanTests {
    @Test func onesAreNumbersAndTrueIsABoolean() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(#"{"a": 1, "b": 0, "c": true, "d": false, "e": 1.0}"#.utf8)) as? [String: Any])
        #expect(!JSONBoolean.isBoolean(object["a"]) && !JSONBoolean.isBoolean(object["b"]) && !JSONBoolean.isBoolean(object["e"]))
        #expect(JSONBoolean.isBoolean(object["c"]) && JSONBoolean.isBoolean(object["d"]))
    }

    @Test func aJudgeScoreOfOneIsAccepted() throws {
        let scores = try JudgeScores.parse(json: #"{"quality":1,"originality":2,"warmth":3,"overall":1}"#)
        #expect(scores == JudgeScores(quality: 1, originality: 2, warmth: 3, overall: 1))
        #expect(throws: JudgeError.self) { try JudgeScores.parse(json: #"{"quality":true,"originality":2,"warmth":3,"overall":4}"#) }
    }

    @Test func aToolLimitOfOneIsAccepted() throws {
        let folder = try TemporaryFolder()
        let tools = try LibraryToolsTests.tools(try LibraryToolsTests.library(folder))
        #expect(try LibraryToolsTests.results(tools.call("search_catalog", arguments: #"{"mood": "calm", "limit": 1}"#)).count == 1)
        #expect(tools.call("search_catalog", arguments: #"{"mood": "calm", "limit": true}"#)
                == .error("search_catalog: limit must be an integer from 1 to 5"))
    }
}
