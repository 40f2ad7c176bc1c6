import Tandem

/// What `respond` and `chat` share on the command line: routing overrides, system instructions,
/// locale, sampling, thinking and a deadline. Every value is checked here, before any plugin is loaded.
struct GenerationArguments {
    static let options: [OptionSpec] = [
        .mode,
        .option("primary", "ID", "primary backend id (overrides the config; not with --mode)"),
        .option("secondary", "ID", "secondary backend id (needs --primary)"),
        .option("system", "TEXT", "system instructions"),
        .option("locale", "BCP47", "the request's locale (\"en\", \"de-CH\")"),
        .option("temperature", "T", "sampling temperature, >= 0 (both sides)"),
        .option("top-p", "P", "nucleus sampling threshold in (0, 1] (both sides)"),
        .option("top-k", "K", "sample among the K most likely tokens, >= 1 (both sides)"),
        .option("seed", "N", "random seed (local side only; needs --top-k or --top-p)"),
        .option("max-tokens", "N", "maximum response tokens, >= 1 (both sides)"),
        .option("thinking-level", "L", "how much the model thinks first: minimal | low | medium | high (cloud side only; not with --thinking-budget)"),
        .option("thinking-budget", "N", "thinking tokens, >= -1: -1 lets the model decide, 0 turns thinking off (cloud side only)"),
        .option("timeout", "SECONDS", "cancel a generation after this long (reported as a timeout)"),
    ]

    /// nil: the config's routing.
    let routing: TandemConfig.Routing?
    let requestOptions: RequestOptions
    let instructions: String?
    let locale: String?
    let timeout: Double?
    private let command: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        command = arguments.command
        routing = try Self.routing(arguments)
        requestOptions = try Self.requestOptions(arguments)
        instructions = arguments.string("system")
        locale = arguments.string("locale")
        timeout = try arguments.double("timeout")
        if let timeout, timeout <= 0 {
            throw UsageError(command, "--timeout: expected a positive number of seconds, got \(timeout)")
        }
    }

    /// The routed model; an unknown `--primary`/`--secondary` id is a usage error naming the configured ones.
    func model(on host: TandemHost) throws -> HybridModel {
        if case .explicit(let primary, let secondary) = routing {
            let known = host.config.backends.keys.sorted()
            for (flag, id) in [("primary", primary), ("secondary", secondary)] {
                if let id, !known.contains(id) {
                    throw UsageError(command, "--\(flag): unknown backend id \"\(id)\" (configured: \(known.joined(separator: ", ")))")
                }
            }
        }
        return try host.hybridModel(routing: routing)
    }

    /// A fresh conversation on `model` with the instructions and locale given.
    func session(on model: HybridModel) -> LanguageModelSession {
        LanguageModelSession(model: model, instructions: instructions, locale: locale)
    }

    /// One request outside a session: the instructions, `prompt`, and tools the caller runs.
    func request(_ prompt: String, tools: [ToolDeclaration]) throws(TandemError) -> HybridRequest {
        guard !prompt.allSatisfy(\.isWhitespace) else { throw TandemError(.emptyPrompt, "the prompt is empty") }
        let instructions = instructions.flatMap { $0.isEmpty ? nil : [Message.system($0)] } ?? []
        return HybridRequest(messages: instructions + [.user(prompt)], tools: tools, locale: locale, options: requestOptions)
    }

    private static func routing(_ arguments: ParsedArguments) throws(UsageError) -> TandemConfig.Routing? {
        switch (arguments.string("mode"), arguments.string("primary"), arguments.string("secondary")) {
        case (_, nil, nil): return try arguments.routingMode()
        case (nil, let primary?, let secondary): return .explicit(primary: primary, secondary: secondary)
        case (nil, nil, _?): throw UsageError(arguments.command, "--secondary needs --primary")
        case (_?, _, _): throw UsageError(arguments.command, "--mode cannot be combined with --primary/--secondary")
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
        let thinking = try thinkingConfig(arguments)
        let sampling: GenerationOptions.SamplingMode?
        switch (topK, topP) {
        case (let k?, nil): sampling = .random(top: k, seed: seed)
        case (nil, let p?): sampling = .random(probabilityThreshold: p, seed: seed)
        case (nil, nil):
            if seed != nil { throw UsageError(arguments.command, "--seed needs --top-k or --top-p (it seeds random sampling)") }
            sampling = nil
        case (_?, _?): throw UsageError(arguments.command, "--top-k and --top-p cannot be combined (the local side samples one way)")
        }
        var options = RequestOptions.default
        if sampling != nil || temperature != nil || maxTokens != nil {
            options.local = GenerationOptions(sampling: sampling, temperature: temperature, maximumResponseTokens: maxTokens)
        }
        if topP != nil || topK != nil || temperature != nil || maxTokens != nil || thinking != nil {
            options.cloud = GenerationConfig(
                temperature: temperature.map(Float.init), topP: topP.map(Float.init), topK: topK, maxOutputTokens: maxTokens,
                thinkingConfig: thinking)
        }
        return options
    }

    /// `--thinking-level` or `--thinking-budget` (a level or a budget, as `ThinkingConfig` holds);
    /// the budget's range is checked by the session, as for API users.
    private static func thinkingConfig(_ arguments: ParsedArguments) throws(UsageError) -> ThinkingConfig? {
        let budget = try arguments.integer("thinking-budget")
        switch (arguments.string("thinking-level"), budget) {
        case (nil, nil): return nil
        case (nil, let budget?): return ThinkingConfig(thinkingBudget: budget)
        case (let name?, nil):
            guard let level = ThinkingLevel(rawValue: name) else {
                let levels = ThinkingLevel.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(arguments.command, "--thinking-level: unknown level \"\(name)\" (expected one of: \(levels))")
            }
            return ThinkingConfig(thinkingLevel: level)
        case (_?, _?):
            throw UsageError(arguments.command, "--thinking-level and --thinking-budget cannot be combined (a model takes a level or a budget)")
        }
    }
}
