/// One guided generation on the local runner: which tokens may come next, and the state as the
/// sampled tokens are accepted.
///
///     var constraint = try TokenConstraint(schemaText: options.responseSchema, vocabulary: vocabulary)
///     var mask = TokenMask(tokenCount: vocabulary.count)
///     while !constraint.isFinished {
///         constraint.computeMask(into: &mask)
///         mask.apply(to: logits)                 // disallowed tokens get -infinity
///         let token = sample(logits)
///         if vocabulary.endOfGenerationTokens.contains(token) { break }  // allowed only when complete
///         try constraint.accept(token)
///     }
public struct TokenConstraint: Sendable {
    public let automaton: JSONAutomaton
    public let vocabulary: TokenVocabulary
    public private(set) var state: JSONAutomatonState

    public init(schema: GenerationSchema, vocabulary: TokenVocabulary) throws {
        automaton = try JSONAutomaton(schema: schema)
        self.vocabulary = vocabulary
        state = automaton.initialState
    }

    /// From the ABI's `response_schema` text; `.unsupportedGuide` (with the schema path) for what
    /// local decoding cannot enforce.
    public init(schemaText: String, vocabulary: TokenVocabulary) throws {
        try self.init(schema: GenerationSchema(jsonSchema: schemaText), vocabulary: vocabulary)
    }

    public func computeMask(into mask: inout TokenMask) {
        vocabulary.computeMask(automaton, state: state, into: &mask)
    }

    /// Advances by a sampled text token. Throws `.tokenNotAllowed` if the mask did not allow it
    /// (the state is then unchanged).
    public mutating func accept(_ token: Int) throws {
        guard token >= 0, token < vocabulary.count, !vocabulary.tokens[token].isEmpty,
            !vocabulary.endOfGenerationTokens.contains(token),
            automaton.advance(&state, bytes: vocabulary.tokens[token])
        else {
            throw GuidedJSONError(.tokenNotAllowed, "token \(token) cannot continue the guided document here")
        }
    }

    /// The document is complete: an end-of-generation token is allowed.
    public var isComplete: Bool { automaton.isComplete(state) }

    /// The document is complete and nothing else may follow: stop generating.
    public var isFinished: Bool { automaton.isFinished(state) }
}
