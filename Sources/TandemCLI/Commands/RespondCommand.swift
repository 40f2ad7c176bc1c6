import Foundation
import JSONModel
import Tandem

/// `tandem respond`: one prompt through the router; the answer on stdout, who served on stderr
/// (or everything as JSON).
enum RespondCommand: Command {
    static let name = "respond"
    static let summary = "answer one prompt through the hybrid router"
    static let arguments = "[PROMPT] [options]   (PROMPT from stdin when omitted)"
    static let maxPositionals = 1
    static let options: [OptionSpec] = GenerationArguments.options + [
        .option("schema", "FILE", "JSON Schema file: print the answer as a document of it, validated by the host"),
        .option("tools", "FILE", "JSON file declaring tools the model may call; its calls are printed, not run (see below)"),
        .flag("stream", "print the answer as it is generated (with --schema: one line per partial snapshot, then the validated document)"),
        .flag("json", "print one JSON object {text, modelVersion, servedBy, finishReason, fallback, usage, toolCalls}; with --stream, one {\"delta\"} line per piece first"),
    ]
    static let discussion = """
        Without --json the answer goes to stdout and a line naming the serving backend, its model
        version and any fallback goes to stderr. Ctrl-C or --timeout cancels the generation (exit code 5).
        A model that is getting ready on its own (a pinned model file being checked, a download under
        way) is waited for first, within --timeout, with progress on stderr when it is a terminal.

        --tools FILE declares tools; nothing is run. When the model calls tools, each call is
        printed on its own line (NAME ARGUMENTS-JSON) and the finish reason is toolCalls; with
        --json they are the toolCalls array [{id, name, arguments}] (arguments: the JSON text).
        The file is a JSON array, one object per tool:
          [{"name": "get_weather", "description": "The weather in a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
        name (A-Z a-z 0-9 _ -, at most 64, unique) is required; parameters (a JSON Schema of an
        object) and description are optional. OpenAI's {"type": "function", "function": {...}}
        entries are read too. Not with --schema or --stream.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let prompt = try readPrompt(arguments)
        let generation = try GenerationArguments(arguments)
        if arguments.string("tools") != nil && (arguments.string("schema") != nil || arguments.flag("stream")) {
            throw UsageError(name, "--tools cannot be combined with --schema or --stream")
        }
        let schema = try arguments.string("schema").map { path throws(UsageError) in try GuidedRespond.loadSchema(path) }
        let tools = try arguments.string("tools").map { path throws(UsageError) in try ToolsFile.load(path, command: name) }
        let host = try context.host()
        let model = try generation.model(on: host)
        let session = generation.session(on: model)
        let options = generation.requestOptions
        let json = arguments.flag("json")
        let stream = arguments.flag("stream")

        let response = try await CancellableGeneration.run(timeout: generation.timeout) { token in
            try await ModelWait.ready(model, locale: generation.locale, cancellation: token)
            if let tools {
                return try await model.respond(to: generation.request(prompt, tools: tools), cancellation: token)
            }
            if let schema {
                return try await CancellableGeneration.task(cancelledBy: token) {
                    try await GuidedRespond.respond(session, to: prompt, schema: schema, options: options, stream: stream, json: json)
                }
            }
            guard stream else {
                return try await CancellableGeneration.task(cancelledBy: token) { try await session.respond(to: prompt, options: options) }
            }
            return try await StreamedAnswer.collect(session.streamResponse(to: prompt, options: options, cancellation: token)) { piece in
                if json { Terminal.out(JSONValue.object(["delta": .string(piece)]).jsonText(sortingKeys: true)) } else { Terminal.out(piece, terminator: "") }
            }
        }

        if json {
            Terminal.out(JSONReport.response(response).jsonText(sortingKeys: true))
        } else {
            for call in response.toolCalls { Terminal.out("\(call.name) \(call.argumentsJSON)") }
            if tools == nil || !response.content.isEmpty { Terminal.out(stream && schema == nil ? "" : response.content) }
            Terminal.log(response.servedByText)
        }
        return .success
    }

    private static func readPrompt(_ arguments: ParsedArguments) throws(UsageError) -> String {
        if let prompt = arguments.positionals.first { return prompt }
        guard !Terminal.stdinIsTerminal else { throw UsageError(name, "no prompt: give PROMPT or pipe it on stdin") }
        return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
