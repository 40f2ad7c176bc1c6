import GuidedJSON
import JSONModel
import Testing
import Tandem

/// `streamResponse(to:generating:)`: partial snapshots from the incremental parser, field by
/// field. The fake sends its reply as word pieces (each with the whitespace before it).
@Suite struct GuidedSnapshotTests {
    @Test func snapshotsGrowFieldByField() async throws {
        let reply = #"{"city": "Bern Zurich", "sky": "sunny", "celsius": 21}"#
        let session = try FakePlugin.session(["guided_reply": reply])
        var snapshots: [GuidedSnapshot<Forecast>] = []
        for try await snapshot in session.streamResponse(to: "Weather?", generating: Forecast.self) {
            snapshots.append(snapshot)
        }
        let partials = snapshots.map { $0.partial?.value }
        let paths = snapshots.map { $0.activePath?.description }
        // Pieces: {"city":   "Bern   Zurich",   "sky":   "sunny",   "celsius":   21}
        #expect(partials == [
            [:],
            ["city": "Bern"],
            ["city": "Bern Zurich"],
            ["city": "Bern Zurich"],
            ["city": "Bern Zurich", "sky": "sunny"],
            ["city": "Bern Zurich", "sky": "sunny"],
            ["city": "Bern Zurich", "sky": "sunny", "celsius": 21],
            ["city": "Bern Zurich", "sky": "sunny", "celsius": 21],
        ])
        // After a member's comma the next key is not written yet: the path is the object's.
        #expect(paths == ["$.city", "$.city", "$", "$.sky", "$", "$.celsius", nil, nil])
        #expect(snapshots.map(\.isComplete) == [false, false, false, false, false, false, true, true])
        #expect(snapshots.dropLast().allSatisfy { $0.response == nil })
        #expect(snapshots.last?.response?.content == Forecast(city: "Bern Zurich", sky: .sunny, celsius: 21))
        #expect(snapshots.allSatisfy { $0.servedBy == "local" })
    }

    @Test func snapshotsComeFromTheSecondaryAfterAFallback() async throws {
        let model = HybridModel(
            mode: .preferLocal, local: try FakePlugin.model("local", ["error": "offline", "guided_reply": "{}"]),
            cloud: try FakePlugin.model("cloud", ["guided_reply": #"{"city": "Chur", "sky": "cloudy", "celsius": 9}"#]))
        var snapshots: [GuidedSnapshot<Forecast>] = []
        for try await snapshot in LanguageModelSession(model: model).streamResponse(to: "Weather?", generating: Forecast.self) {
            snapshots.append(snapshot)
        }
        #expect(!snapshots.isEmpty)
        #expect(snapshots.map(\.servedBy) == Array(repeating: "cloud", count: snapshots.count))
        #expect(snapshots.map { $0.fallback.reason?.name } == Array(repeating: "offline", count: snapshots.count))
        #expect(snapshots.last?.response?.content == Forecast(city: "Chur", sky: .cloudy, celsius: 9))
    }

    @Test func invalidStreamEndsWithADecodingFailureAfterItsSnapshots() async throws {
        let session = try FakePlugin.session(["guided_reply": #"{"city": "Bern", "sky": "hail", "celsius": 5}"#])
        var seen: [JSONModel.JSONValue?] = []
        let error = await #expect(throws: TandemError.self) {
            for try await snapshot in session.streamResponse(to: "Weather?", generating: Forecast.self) {
                seen.append(snapshot.partial?.value)
            }
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.violations.map(\.path.description) == ["$.sky"])
        #expect(seen.last == ["city": "Bern", "sky": "hail", "celsius": 5])
    }

    @Test func textThatCannotBecomeJSONStopsTheGeneration() async throws {
        // The second piece breaks the syntax: the host stops the backend rather than read on.
        let session = try FakePlugin.session(["guided_reply": #"{"city": oops "Bern", "sky": "sunny", "celsius": 5}"#])
        var count = 0
        let error = await #expect(throws: TandemError.self) {
            for try await _ in session.streamResponse(to: "Weather?", generating: Forecast.self) { count += 1 }
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.code == .syntax)
        #expect(count == 1)
        #expect(error?.message.contains("stoppedByCaller") == true)
    }
}
