import Foundation
import GuidedJSON
import JSONModel
import Tandem

/// `tandem respond --schema FILE.json`: the answer as a document of the schema, validated by the
/// host; with `--stream`, each partial snapshot on its own line first.
enum GuidedRespond {
    /// Reads the schema file; a schema the host cannot express is a usage error naming the JSON
    /// path of the problem, before any backend is called.
    static func loadSchema(_ path: String) throws(UsageError) -> GenerationSchema {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError(RespondCommand.name, "--schema \(path): cannot read the file: \(error.localizedDescription)")
        }
        do {
            let schema = try GenerationSchema(jsonSchema: text)
            try schema.check()
            return schema
        } catch {
            throw UsageError(RespondCommand.name, "--schema \(path): \(error)")
        }
    }

    /// The response, its content replaced by the validated document's canonical JSON text.
    static func respond(
        _ session: LanguageModelSession, to prompt: String, schema: GenerationSchema, options: RequestOptions,
        stream: Bool, json: Bool
    ) async throws -> Response {
        guard stream else {
            return validated(try await session.respond(to: prompt, schema: schema, options: options))
        }
        var printed: GeneratedContent?
        for try await snapshot in session.streamResponse(to: prompt, schema: schema, options: options) {
            if let response = snapshot.response { return validated(response) }
            // The complete document is printed once, validated, by the caller.
            guard let partial = snapshot.partial, !snapshot.isComplete, partial != printed else { continue }
            printed = partial
            if json {
                Terminal.out(JSONModel.JSONValue.object(["snapshot": partial.value]).jsonText)
            } else {
                Terminal.out(partial.jsonText)
            }
        }
        throw TandemError(.cancelled, "the stream ended before the answer was complete")
    }

    private static func validated(_ guided: GuidedResponse<GeneratedContent>) -> Response {
        var response = guided.response
        response.content = guided.rawContent.jsonText
        return response
    }
}
