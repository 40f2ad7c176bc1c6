/// How `tandem serve` listens and what it allows. The defaults are the documented ones
/// (README, "tandem serve").
public struct ServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal; anything but loopback needs `apiKey`.
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port: UInt16 = 8080
    /// When set, every request but `GET /health` must carry `Authorization: Bearer <key>`.
    public var apiKey: String?
    /// Largest request body.
    public var maxBodyBytes = 4 * 1024 * 1024
    /// Most messages in one chat request.
    public var maxMessages = 1000
    /// Most inputs in one embeddings request.
    public var maxEmbeddingInputs = 2048
    /// Longest a request may take, queueing included; then it is cancelled with 504.
    public var requestTimeoutSeconds = 300.0
    /// A connection idle this long is closed.
    public var idleTimeoutSeconds = 30
    /// Connections open at once.
    public var maxConnections = 512
    /// Requests that may wait for a backend that serves one at a time; more get 429.
    public var queueDepth = 64
    /// The `Retry-After` sent with a full queue, in seconds.
    public var retryAfterSeconds = 1
    /// After SIGTERM, how long in-flight requests may take before they are cancelled.
    public var drainTimeoutSeconds = 30.0

    public init() {}
}
