/// How long each phase of an HTTP exchange may take.
public struct TransportTimeouts: Hashable, Sendable {
    /// TCP (and TLS) connection set-up. Passing it is offline-class: no response byte arrived.
    public var connectMilliseconds: Int64
    /// From sending the request to the first response byte.
    public var firstByteMilliseconds: Int64
    /// Longest silence between two received pieces of the body.
    public var idleMilliseconds: Int64

    public init(connectMilliseconds: Int64 = 10_000, firstByteMilliseconds: Int64 = 60_000, idleMilliseconds: Int64 = 30_000) {
        self.connectMilliseconds = connectMilliseconds
        self.firstByteMilliseconds = firstByteMilliseconds
        self.idleMilliseconds = idleMilliseconds
    }
}
