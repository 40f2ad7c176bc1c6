/// What answers the requests of an `HTTPDaemon`. Called on the connection's own thread, which
/// may block for as long as the answer takes.
public protocol HTTPHandler: Sendable {
    /// Answers a complete request. `client` is the connection it came on (for hang-up watches).
    func respond(to request: HTTPRequest, client: ClientConnection) -> HTTPResponse
    /// The answer to a request whose body is larger than the daemon's limit (the body is not read
    /// or kept).
    func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse
}

/// The connection a request arrived on.
public struct ClientConnection: Sendable {
    /// Its socket, for polling only (the daemon owns it); -1 when unknown.
    public let fd: Int32
}
