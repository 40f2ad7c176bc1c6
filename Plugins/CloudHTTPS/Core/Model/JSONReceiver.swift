import JSONModel
import TandemBridge

/// Collects a whole JSON answer (embeddings, token counts, model lists).
final class JSONReceiver: TransferReceiver {
    private let maxBodyBytes: Int
    private(set) var head: HTTPResponseHead?
    private(set) var body: [UInt8] = []

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func receiveHead(_ head: HTTPResponseHead) throws(BackendFailure) {
        self.head = head
        if head.status == 200, !head.contentType.contains("json") {
            throw BackendFailure(.decoding, "expected a JSON answer, got \(head.contentType.isEmpty ? "no content type" : HTTPFailureMapper.clip(head.contentType))")
        }
    }

    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(BackendFailure) -> Bool {
        guard body.count + bytes.count <= maxBodyBytes else {
            if head?.status != 200 { return false }
            throw BackendFailure(.decoding, "the answer is larger than max_response_bytes (\(maxBodyBytes))")
        }
        body.append(contentsOf: bytes)
        return true
    }

    func json() throws(BackendFailure) -> JSONValue {
        do {
            return try JSONValue(parsing: body, keepingNumberText: true)
        } catch {
            throw BackendFailure(.decoding, "the answer is not JSON: \(error)")
        }
    }
}
