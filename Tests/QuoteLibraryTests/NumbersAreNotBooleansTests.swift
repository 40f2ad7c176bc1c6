import Foundation
import JSONModel
import Testing
@testable import QuoteLibrary

/// JSON numbers 0 and 1 are numbers, not booleans (with JSONSerialization on Linux `NSNumber(1) is
/// Bool` holds; the typed JSON value keeps them apart): a judge may score 1, a tool call may ask
/// for one result.
@Suite struct NumbersAreNotBooleansTests {
    @Test func onesAreNumbersAndTrueIsABoolean() throws {
        let object = try JSONValue(parsing: #"{"a": 1, "b": 0, "c": true, "d": false, "e": 1.0}"#)
        #expect(object["a"]?.boolValue == nil && object["b"]?.boolValue == nil && object["e"]?.boolValue == nil)
        #expect(object["c"]?.boolValue == true && object["d"]?.boolValue == false)
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
