import Foundation
import GuidedJSON
import MockCloudServer
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// Guided output on the mock cloud: the schema reaches the server in the dialect's own field,
/// the host validates the document and decodes the typed value.
@Suite struct CloudGuidedTests {
    static let dialects: [DialectKind] = [.gemini, .openai]

    @Test(arguments: dialects)
    func respondGeneratingDecodesTheMocksDocument(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "json", mode: "cloud-only")
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        let answer = try await session.respond(to: "Facts about Paris", generating: CityFacts.self)
        #expect(answer.content == CityFacts(city: "Paris", population: 2102650))
        #expect(answer.servedBy == "cloud")
        #expect(answer.response.rawResponse.modelVersion == CloudHostFixture.servedVersion(dialect))

        let sent = try #require(try await fixture.requests().first)
        let schemaSent: Any?
        switch dialect {
        case .gemini:
            let config = try #require(sent["generationConfig"] as? [String: Any])
            #expect(config["responseMimeType"] as? String == "application/json")
            schemaSent = config["responseJsonSchema"]
        case .openai:
            let format = try #require(sent["response_format"] as? [String: Any])
            #expect(format["type"] as? String == "json_schema")
            let wrapper = try #require(format["json_schema"] as? [String: Any])
            #expect(wrapper["strict"] as? Bool == true)
            schemaSent = wrapper["schema"]
        }
        let properties = try #require((schemaSent as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["city", "population"])
    }

    @Test(arguments: dialects)
    func snapshotsArriveFieldByField(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "json", mode: "cloud-only")
        defer { fixture.cleanUp() }
        var snapshots: [GuidedSnapshot<CityFacts>] = []
        for try await snapshot in try fixture.session().streamResponse(to: "Facts about Paris", generating: CityFacts.self) {
            snapshots.append(snapshot)
        }
        // The mock sends `{"city": "Paris",` then ` "population": 2102650}`.
        let partial = try #require(snapshots.first?.partial)
        #expect(try partial.property("city")?.string() == "Paris")
        #expect(try partial.property("population") == nil)
        #expect(snapshots.first?.isComplete == false)
        #expect(snapshots.last?.isComplete == true)
        #expect(snapshots.last?.response?.content.population == 2102650)
        #expect(snapshots.allSatisfy { $0.servedBy == "cloud" })
    }

    @Test(arguments: dialects)
    func anAnswerThatIsNotTheDocumentIsADecodingFailure(_ dialect: DialectKind) async throws {
        // The `ok` scenario ignores the schema and echoes the prompt as text.
        let fixture = try await CloudHostFixture(dialect, scenario: "ok", mode: "cloud-only")
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(to: "Facts about Paris", generating: CityFacts.self)
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.message.contains("cloud") == true, "\(String(describing: error))")
        #expect(error?.guided != nil)
        #expect(session.transcript.entries.isEmpty)
    }
}
