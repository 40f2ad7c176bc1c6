import Tandem

/// What `respond` and `chat` share on the command line: routing overrides, system instructions,
/// locale, sampling and a deadline. Every value is checked here, before any plugin is loaded.
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
        if topP != nil || topK != nil || temperature != nil || maxTokens != nil {
            options.cloud = GenerationConfig(temperature: temperature.map(Float.init), topP: topP.map(Float.init), topK: topK, maxOutputTokens: maxTokens)
        }
        return options
    }
}
