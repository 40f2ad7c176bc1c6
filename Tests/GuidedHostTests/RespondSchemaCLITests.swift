import Foundation
import GuidedJSON
import Testing

/// `tandem respond --schema FILE.json` through the built binary, the real loader and the fake.
@Suite struct RespondSchemaCLITests {
    static let reply = #"{"city": "Bern Zurich", "sky": "rainy", "celsius": -3}"#

    func withTandem(_ local: [String: String], _ body: (TandemProcess) throws -> Void) throws {
        let tandem = try TandemProcess(local: local)
        defer { tandem.cleanUp() }
        try tandem.write("forecast.json", Forecast.generationSchema.jsonSchemaText)
        try body(tandem)
    }

    @Test func schemaPrintsTheValidatedDocument() throws {
        try withTandem(["guided_reply": Self.reply]) { tandem in
            let outcome = try tandem.run(["respond", "--schema", "forecast.json", "Weather in Bern?"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout == #"{"city":"Bern Zurich","sky":"rainy","celsius":-3}"# + "\n")
            #expect(outcome.stderr.contains("served by local, model local-v1"))
        }
    }

    @Test func streamPrintsEachSnapshotThenTheDocument() throws {
        try withTandem(["guided_reply": Self.reply]) { tandem in
            let outcome = try tandem.run(["respond", "--schema", "forecast.json", "--stream", "Weather in Bern?"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.split(separator: "\n") == [
                "{}",
                #"{"city":"Bern"}"#,
                #"{"city":"Bern Zurich"}"#,
                #"{"city":"Bern Zurich","sky":"rainy"}"#,
                #"{"city":"Bern Zurich","sky":"rainy","celsius":-3}"#,
            ])
        }
    }

    @Test func jsonReportCarriesTheDocumentAsText() throws {
        try withTandem(["guided_reply": Self.reply]) { tandem in
            let outcome = try tandem.run(["respond", "--schema", "forecast.json", "--json", "Weather?"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(report?["text"] as? String == #"{"city":"Bern Zurich","sky":"rainy","celsius":-3}"#)
            #expect(report?["servedBy"] as? String == "local")
        }
    }

    @Test func schemaWithAnUnsupportedKeywordIsAUsageErrorWithItsPath() throws {
        // Were the backend called, it would fail with serverError (exit 6).
        try withTandem(["error": "serverError"]) { tandem in
            try tandem.write("email.json", #"{"type": "object", "properties": {"email": {"type": "string", "format": "email"}}}"#)
            let outcome = try tandem.run(["respond", "--schema", "email.json", "Your email?"])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("email.json"))
            #expect(outcome.stderr.contains("unsupportedGuide"))
            #expect(outcome.stderr.contains("$.properties.email.format"))
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test func recursiveSchemaIsAUsageErrorWithItsPath() throws {
        try withTandem(["error": "serverError"]) { tandem in
            try tandem.write("list.json", ##"{"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"}"##)
            let outcome = try tandem.run(["respond", "--schema", "list.json", "A list"])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("refCycle"))
            #expect(outcome.stderr.contains("$.$defs.node.properties.next.$ref"))
        }
    }

    @Test func missingOrMalformedSchemaFileIsAUsageError() throws {
        try withTandem([:]) { tandem in
            let missing = try tandem.run(["respond", "--schema", "nowhere.json", "Hi"])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("nowhere.json"))
            try tandem.write("broken.json", #"{"type": "object", "properties": "#)
            let broken = try tandem.run(["respond", "--schema", "broken.json", "Hi"])
            #expect(broken.status == 2)
            #expect(broken.stderr.contains("broken.json"))
        }
    }

    @Test func answerOutsideTheSchemaFailsWithTheReason() throws {
        try withTandem(["guided_reply": #"{"city": "Bern", "sky": "hail", "celsius": 5}"#]) { tandem in
            let outcome = try tandem.run(["respond", "--schema", "forecast.json", "Weather?"])
            #expect(outcome.status == 6)
            #expect(outcome.stderr.contains("decodingFailure") || outcome.stderr.contains("validationFailed"))
            #expect(outcome.stderr.contains("$.sky"))
            #expect(outcome.stdout.isEmpty)
        }
    }
}
