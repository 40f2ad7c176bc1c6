import JSONModel
import TandemBridge

/// One wire protocol: how requests are written and how answers are read. A dialect is pure
/// (no I/O), so every encoder and decoder is testable on bytes alone.
public protocol CloudDialect: Sendable {
    /// The generation request; `credential` is nil when no key is sent.
    func generateRequest(_ request: BackendRequest, stream: Bool, credential: String?) throws(BackendFailure) -> HTTPRequest
    /// A fresh decoder for one attempt's response.
    func makeDecoder(streamed: Bool) -> any GenerationDecoder

    func embedRequest(_ texts: [String], credential: String?) throws(BackendFailure) -> HTTPRequest
    /// One vector per input, in input order.
    func decodeEmbeddings(_ body: JSONValue, count: Int) throws(BackendFailure) -> [[Float]]

    /// Nil when the protocol has no token-counting endpoint.
    func countTokensRequest(_ request: BackendRequest, credential: String?) throws(BackendFailure) -> HTTPRequest?
    func decodeTokenCount(_ body: JSONValue) throws(BackendFailure) -> Int

    func listModelsRequest(credential: String?) -> HTTPRequest
    func decodeModelList(_ body: JSONValue) throws(BackendFailure) -> [String]
}
