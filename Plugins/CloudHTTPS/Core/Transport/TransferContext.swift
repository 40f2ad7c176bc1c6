import TandemBridge

/// State shared with the C callbacks of one transfer (through an unretained pointer that lives
/// as long as `perform`).
final class TransferContext {
    let receiver: TransferReceiver
    var head: HTTPResponseHead?
    var pendingStatus = 0
    var pendingHeaders: [String: String] = [:]
    var receivedAnyByte = false
    var lastByteAt: Int64 = 0
    var receiverFailure: BackendFailure?
    var stoppedByReceiver = false

    init(receiver: TransferReceiver) { self.receiver = receiver }

    func headerLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        receivedAnyByte = true
        lastByteAt = MonotonicClock.nowMilliseconds()
        let line = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            pendingStatus = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            pendingHeaders = [:]
        } else if line.isEmpty {
            // End of a header block; 1xx blocks are followed by the real one.
            guard pendingStatus >= 200 else { return true }
            let head = HTTPResponseHead(status: pendingStatus, headers: pendingHeaders)
            self.head = head
            do { try receiver.receiveHead(head) } catch { receiverFailure = error; return false }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            pendingHeaders[name] = pendingHeaders[name].map { "\($0), \(value)" } ?? value
        }
        return true
    }

    func body(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        receivedAnyByte = true
        lastByteAt = MonotonicClock.nowMilliseconds()
        do {
            if try receiver.receiveBody(bytes) { return true }
            stoppedByReceiver = true
            return false
        } catch {
            receiverFailure = error
            return false
        }
    }
}

func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    let context = Unmanaged<TransferContext>.fromOpaque(user!).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    return context.body(bytes) ? length : 0
}

func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    let context = Unmanaged<TransferContext>.fromOpaque(user!).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    return context.headerLine(bytes) ? length : 0
}
