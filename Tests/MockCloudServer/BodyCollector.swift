import CloudHTTPSCore
import TandemBridge

/// Collects a whole response body (the mock's request log).
final class BodyCollector: TransferReceiver {
    var head: HTTPResponseHead?
    var body: [UInt8] = []
    func receiveHead(_ head: HTTPResponseHead) throws(BackendFailure) { self.head = head }
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(BackendFailure) -> Bool {
        body.append(contentsOf: bytes)
        return true
    }
}
