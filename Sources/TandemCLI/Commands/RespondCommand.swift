import Foundation
import Tandem

/// `tandem respond`: one prompt through the router; the answer on stdout, who served on stderr
/// (or everything as JSON).
enum RespondCommand: Command {
    static let name = "respond"
    static let summary = "answer one prompt through the hybrid router"
    static let arguments = "[PROMPT] [options]   (PROMPT from stdin when omitted)"
    static let maxPositionals = 1
    static let options: [OptionSpec] = [
        .option("mode", "MODE", "prefer-local | prefer-cloud | local-only | cloud-only (overrides the config)"),
        .option("primary", "ID", "primary backend id (overrides the config; not with --mode)"),
        .option("secondary", "ID", "secondary backend id (needs --primary)"),
        .option("system", "TEXT", "system instructions"),
        .option("locale", "BCP47", "the request's locale (\"en\", \"de-CH\")"),
        .option("temperature", "T", "sampling temperature, >= 0 (both sides)"),
        .option("top-p", "P", "nucleus sampling threshold in (0, 1] (both sides)"),
        .option("top-k", "K", "sample among the K most likely tokens, >= 1 (both sides)"),
        .option("seed", "N", "random seed (local side only; needs --top-k or --top-p)"),
        .option("max-tokens", "N", "maximum response tokens, >= 1 (both sides)"),
        .option("timeout", "SECONDS", "cancel the generation after this long (exit code 5)"),
        .flag("stream", "print the answer as it is generated"),
        .flag("json", "print one JSON object {text, modelVersion, servedBy, finishReason, fallback, usage}; with --stream, one {\"delta\"} line per piece first"),
    ]
    static let discussion = """
        Without --json the answer goes to stdout and a line naming the serving backend, its model
        version and any fallback goes to stderr. Ctrl-C cancels the generation (exit code 5).
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let prompt = try readPrompt(arguments)
        let routing = try routingOverride(arguments)
        let options = try requestOptions(arguments)
        let timeout = try arguments.double("timeout")
        if let timeout, timeout <= 0 { throw UsageError(name, "--timeout: expected a positive number of seconds, got \(timeout)") }
        let host = try context.host()
        if case .explicit(let primary, let secondary) = routing {
            let known = host.config.backends.keys.sorted()
            for (flag, id) in [("primary", primary), ("secondary", secondary)] {
                if let id, !known.contains(id) {
                    throw UsageError(name, "--\(flag): unknown backend id \"\(id)\" (configured: \(known.joined(separator: ", ")))")
                }
            }
        }
        let model = try host.hybridModel(routing: routing)
        let session = LanguageModelSession(model: model, instructions: arguments.string("system"), locale: arguments.string("locale"))
        let json = arguments.flag("json")

        let work = Task { () async throws -> Response in
            if !arguments.flag("stream") { return try await session.respond(to: prompt, options: options) }
            var printed = ""
            for try await snapshot in session.streamResponse(to: prompt, options: options) {
                if let response = snapshot.response { return response }
                let delta = String(snapshot.content.dropFirst(printed.count))
                printed = snapshot.content
                if json { Terminal.out(JSONValue.object(["delta": .string(delta)]).jsonText) } else { Terminal.out(delta, terminator: "") }
            }
            throw TandemError(.cancelled, "the stream ended before the answer was complete")
        }
        let interrupt = cancelOnInterrupt(work)
        defer { interrupt.cancel() }
        // The deadline cancels like Ctrl-C does; it completes normally only when it fired.
        let deadline = timeout.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                work.cancel()
            }
        }
        let response: Response
        do {
            response = try await work.value
            deadline?.cancel()
        } catch let error as TandemError where error.code == .cancelled {
            deadline?.cancel()
            if let deadline, (try? await deadline.value) != nil {
                throw TandemError(.timeout, "no answer within \(timeout ?? 0) s", primary: error.primary, secondary: error.secondary)
            }
            throw error
        }

        if json {
            Terminal.out(JSONReport.response(response).jsonText)
        } else {
            Terminal.out(arguments.flag("stream") ? "" : response.content)
            var served = "served by \(response.servedBy), model \(response.rawResponse.modelVersion)"
            if let reason = response.fallback.reason {
                served += "; fallback from \(response.fallback.primaryID) (\(response.fallback.primaryTried ? "tried" : "not tried"): \(reason))"
            }
            Terminal.log(served)
        }
        return .success
    }

    private static func readPrompt(_ arguments: ParsedArguments) throws(UsageError) -> String {
        if let prompt = arguments.positionals.first { return prompt }
        guard !Terminal.stdinIsTerminal else { throw UsageError(name, "no prompt: give PROMPT or pipe it on stdin") }
        return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func routingOverride(_ arguments: ParsedArguments) throws(UsageError) -> TandemConfig.Routing? {
        switch (arguments.string("mode"), arguments.string("primary"), arguments.string("secondary")) {
        case (nil, nil, nil): return nil
        case (let name?, nil, nil):
            guard let mode = RoutingMode(rawValue: name) else {
                throw UsageError(self.name, "--mode: unknown mode \"\(name)\" (expected one of: \(RoutingMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .mode(mode)
        case (nil, let primary?, let secondary): return .explicit(primary: primary, secondary: secondary)
        case (nil, nil, _?): throw UsageError(name, "--secondary needs --primary")
        case (_?, _, _): throw UsageError(name, "--mode cannot be combined with --primary/--secondary")
        }
    }

    /// The same values for both sides, each in its own vocabulary; range checks happen in the
    /// session so that they read the same for API users.
    private static func requestOptions(_ arguments: ParsedArguments) throws(UsageError) -> RequestOptions {
        let temperature = try arguments.double("temperature")
        let topP = try arguments.double("top-p")
        let topK = try arguments.integer("top-k")
        let seed = try arguments.unsigned("seed")
        let maxTokens = try arguments.integer("max-tokens")
        let sampling: GenerationOptions.SamplingMode?
        switch (topK, topP) {
        case (let k?, nil): sampling = .random(top: k, seed: seed)
        case (nil, let p?): sampling = .random(probabilityThreshold: p, seed: seed)
        case (nil, nil):
            if seed != nil { throw UsageError(name, "--seed needs --top-k or --top-p (it seeds random sampling)") }
            sampling = nil
        case (_?, _?): throw UsageError(name, "--top-k and --top-p cannot be combined (the local side samples one way)")
        }
        var options = RequestOptions.default
        if sampling != nil || temperature != nil || maxTokens != nil {
            options.local = GenerationOptions(sampling: sampling, temperature: temperature, maximumResponseTokens: maxTokens)
        }
        if topP != nil || topK != nil || temperature != nil || maxTokens != nil {
            options.cloud = GenerationConfig(temperature: temperature.map(Float.init), topP: topP.map(Float.init), topK: topK, maxOutputTokens: maxTokens)
        }
        return options
    }

    /// Ctrl-C cancels `task` (and through it the plugin call) instead of killing the process.
    private static func cancelOnInterrupt(_ task: Task<Response, any Error>) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler { task.cancel() }
        source.resume()
        return source
    }
}
