import TandemBridge

/// How a transfer ended when it did not throw.
public struct TransferOutcome: Sendable {
    /// Nil only when the receiver stopped before any head arrived.
    public var head: HTTPResponseHead?
    public var stoppedByReceiver: Bool
}

/// What consumes a response, on the calling thread, while the transfer runs.
public protocol TransferReceiver: AnyObject {
    /// The final (non-1xx) status and headers, before any body byte.
    func receiveHead(_ head: HTTPResponseHead) throws(BackendFailure)
    /// The next body bytes; false ends the transfer early without an error.
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(BackendFailure) -> Bool
}
