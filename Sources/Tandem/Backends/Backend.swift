@_exported import TandemBridge

/// One opened model the host can route to: a plugin's `tandem_model` (`PluginBackend`) or, in
/// unit tests, an in-process double. The router and sessions only ever see this protocol.
///
/// - Note: `info` and `availability(locale:)` are thread-safe. `generate`, `embed` and
///   `countTokens` block the calling thread: call them off Swift's cooperative pool. Calls on
///   one backend do not overlap unless `info.capabilities` contains `.concurrentCalls`.
public protocol Backend: AnyObject, Sendable {
    /// The backend id from the config (`"local"`, `"gemini"`), not the model's id.
    var backendID: String { get }
    var info: ModelInfo { get }
    /// Cheap: never a network round trip, never loads weights.
    func availability(locale: String?) -> Availability
    /// Runs one generation. `onEvent` runs on the calling thread before this returns; returning
    /// false stops the generation (finish `.callback`, not an error).
    func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult
    /// One vector per text.
    func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]]
    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int
    /// Whether `tokenEmbeddings` answers: the model offers `tandem.token_embeddings/1`
    /// (tandem_abi.h). Asked of the plugin once, when the model is opened.
    var offersTokenEmbeddings: Bool { get }
    /// One text's own tokens and the encoder's state of each, before pooling.
    func tokenEmbeddings(_ text: String, cancellation: CancellationToken) throws(BackendFailure) -> TokenEmbeddings
    /// Whether `logLikelihood` answers: the model offers `tandem.log_likelihood/1` (tandem_abi.h).
    /// Asked of the plugin once, when the model is opened.
    var offersLogLikelihood: Bool { get }
    /// How likely the model finds `continuation` right after `context`, read as one raw text.
    func logLikelihood(of continuation: String, after context: String, cancellation: CancellationToken) throws(BackendFailure) -> LogLikelihood
}

extension Backend {
    public var offersTokenEmbeddings: Bool { false }
    public func tokenEmbeddings(_ text: String, cancellation: CancellationToken) throws(BackendFailure) -> TokenEmbeddings {
        throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not give per-token states (tandem.token_embeddings/1)")
    }
    public var offersLogLikelihood: Bool { false }
    public func logLikelihood(of continuation: String, after context: String, cancellation: CancellationToken) throws(BackendFailure) -> LogLikelihood {
        throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not score text (tandem.log_likelihood/1)")
    }
}
