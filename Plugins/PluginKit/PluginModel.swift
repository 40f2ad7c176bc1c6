import TandemBridge

/// A backend model written in Swift. `PluginModelBox` turns it into a `tandem_model`; the box
/// catches every thrown `BackendFailure`, so nothing Swift crosses the C boundary.
///
/// Threads: `info` and `availability` may be called from any thread at once; `generate`,
/// `embed` and `countTokens` never overlap unless `info.capabilities` has `.concurrentCalls`.
public protocol PluginModel: AnyObject, Sendable {
    var info: ModelInfo { get }
    /// Cheap: never a network round trip, never loads weights.
    func availability(locale: String?) -> Availability
    /// Runs one generation, delivering every piece of output through `events`. Returns how it
    /// ended; a `false` from `events.send` must end the generation with `.callback`.
    func generate(_ request: BackendRequest, events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> BackendResult
    /// One vector per text, each `info.embeddingDimensions` floats.
    func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]]
    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int
    /// Whether the model offers `tandem.token_embeddings/1` (tandem_abi.h): then `get_extension`
    /// returns its table and the two functions below answer.
    var offersTokenEmbeddings: Bool { get }
    /// How many tokens `tokenEmbeddings(of:)` returns for `text`, from tokenising alone.
    func tokenEmbeddingCount(of text: String) throws(BackendFailure) -> Int
    /// The text's own tokens and their encoder states (tandem_abi.h, TANDEM_EXT_TOKEN_EMBEDDINGS).
    func tokenEmbeddings(of text: String, cancellation: PluginCancellation) throws(BackendFailure) -> TokenEmbeddings
    /// Whether the model offers `tandem.log_likelihood/1` (tandem_abi.h): then `get_extension`
    /// returns its table and `logLikelihood` answers.
    var offersLogLikelihood: Bool { get }
    /// How likely the model finds `continuation` right after `context` (tandem_abi.h,
    /// TANDEM_EXT_LOG_LIKELIHOOD); the box has checked that the continuation is not empty.
    func logLikelihood(of continuation: String, after context: String, cancellation: PluginCancellation) throws(BackendFailure) -> LogLikelihood
}

extension PluginModel {
    public func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        throw BackendFailure(.unsupportedOption, "\(info.id) does not compute embeddings")
    }
    public func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        throw BackendFailure(.unsupportedOption, "\(info.id) does not count tokens")
    }
    public var offersTokenEmbeddings: Bool { false }
    public func tokenEmbeddingCount(of text: String) throws(BackendFailure) -> Int {
        throw BackendFailure(.unsupportedOption, "\(info.id) does not give per-token states")
    }
    public func tokenEmbeddings(of text: String, cancellation: PluginCancellation) throws(BackendFailure) -> TokenEmbeddings {
        throw BackendFailure(.unsupportedOption, "\(info.id) does not give per-token states")
    }
    public var offersLogLikelihood: Bool { false }
    public func logLikelihood(of continuation: String, after context: String, cancellation: PluginCancellation) throws(BackendFailure) -> LogLikelihood {
        throw BackendFailure(.unsupportedOption, "\(info.id) does not score text")
    }
}
