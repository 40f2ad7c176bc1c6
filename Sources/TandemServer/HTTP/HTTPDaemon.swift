import CMicroHTTPD
import Foundation
import Synchronization

/// The HTTP server: libmicrohttpd parses and sends, one thread per connection (so a handler
/// may block while a model generates, and a slow or idle client holds only its own thread), and
/// this type turns its callbacks into `HTTPRequest`s and `HTTPResponse`s for a `HTTPHandler`.
///
/// - Note: Thread-safe. Start once; `stopAccepting` then `stop` when shutting down.
public final class HTTPDaemon: @unchecked Sendable {
    public struct Limits: Sendable {
        /// Largest request body read; a larger one is answered by `HTTPHandler.bodyTooLarge`.
        public var maxBodyBytes: Int
        /// Connections open at once; libmicrohttpd refuses more at accept.
        public var maxConnections: Int
        /// A connection idle (no byte in either direction) this long is closed: a client that
        /// connects and sends nothing cannot keep a thread for ever.
        public var idleTimeoutSeconds: Int

        public init(maxBodyBytes: Int, maxConnections: Int, idleTimeoutSeconds: Int) {
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
            self.idleTimeoutSeconds = idleTimeoutSeconds
        }
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A body larger than this many times the limit is refused without reading it; a smaller
    /// oversized one is read and dropped first, so that the client, still sending, reads the 413.
    static let unreadBodyFactor = 8

    let handler: any HTTPHandler
    let limits: Limits
    private var daemon: OpaquePointer?
    private var listenFD: Int32 = -1
    /// The port listened on (the one chosen when started on port 0).
    public private(set) var port: UInt16 = 0
    /// Requests whose head has arrived and that libmicrohttpd has not completed (response sent,
    /// or connection closed).
    private let open = Mutex(0)

    public init(handler: any HTTPHandler, limits: Limits) {
        self.handler = handler
        self.limits = limits
    }

    /// Binds `address` (an IP literal) and starts serving.
    public func start(address: String, port: UInt16) throws(StartError) {
        var badAddress: Int32 = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        let limits = tandem_mhd_limits(
            connection_limit: UInt32(self.limits.maxConnections), idle_timeout_seconds: UInt32(self.limits.idleTimeoutSeconds),
            connection_memory: 64 * 1024)
        let started = tandem_mhd_start(address, port, limits, accessHandler, context, requestCompleted, context, &badAddress)
        guard let started else {
            if badAddress != 0 { throw StartError(description: "--host \(address): not an IPv4 or IPv6 address") }
            throw StartError(description: "cannot listen on \(address):\(port): \(String(cString: strerror(errno)))")
        }
        daemon = started
        self.port = tandem_mhd_port(started)
    }

    /// Stops accepting connections (the listening socket is closed); open ones go on.
    public func stopAccepting() {
        guard let daemon, listenFD < 0 else { return }
        listenFD = MHD_quiesce_daemon(daemon)
        if listenFD >= 0 { close(listenFD) }
    }

    /// Waits up to `seconds` until every open request is completed: a handler's run can end
    /// before its response is queued and sent, and `stop` would cut that response off.
    public func waitForOpenRequests(seconds: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while open.withLock({ $0 }) > 0 && ContinuousClock.now < deadline { usleep(5_000) }
    }

    fileprivate func completed() { open.withLock { $0 -= 1 } }

    /// Closes every connection and ends the daemon's threads.
    public func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    // MARK: - libmicrohttpd callbacks (on the connection's thread)

    /// One request being received: its head, and its body as it arrives.
    final class PendingRequest {
        var request: HTTPRequest
        var oversized = false
        init(_ request: HTTPRequest) { self.request = request }
    }

    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = slot.pointee else {
            let pending = PendingRequest(HTTPRequest(method: method, path: url, headers: Self.headers(of: connection)))
            slot.pointee = Unmanaged.passRetained(pending).toOpaque()
            open.withLock { $0 += 1 }
            if let length = pending.request.header("content-length").flatMap(Int.init),
                length > limits.maxBodyBytes * Self.unreadBodyFactor
            {
                return queue(handler.bodyTooLarge(pending.request, limit: limits.maxBodyBytes), on: connection)
            }
            return TANDEM_MHD_YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if !pending.oversized, let upload {
                if pending.request.body.count + uploadSize.pointee > limits.maxBodyBytes {
                    pending.oversized = true
                    pending.request.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                }
            }
            uploadSize.pointee = 0
            return TANDEM_MHD_YES
        }
        if pending.oversized { return queue(handler.bodyTooLarge(pending.request, limit: limits.maxBodyBytes), on: connection) }
        let response = handler.respond(to: pending.request, client: ClientConnection(fd: tandem_mhd_connection_fd(connection)))
        return queue(response, on: connection)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                tandem_mhd_response_copying(buffer.count, buffer.baseAddress)
            }
        case .stream(let stream):
            let context = Unmanaged.passRetained(stream).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 16 * 1024, streamReader, context, streamFreed)
            if made == nil { Unmanaged<ResponseStream>.fromOpaque(context).release() }
        }
        guard let made else { return TANDEM_MHD_NO }
        defer { MHD_destroy_response(made) }
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    private static func headers(of connection: OpaquePointer) -> [String: String] {
        final class Box { var headers: [String: String] = [:] }
        let box = Box()
        _ = withExtendedLifetime(box) {
            tandem_mhd_request_headers(connection, { context, _, key, value in
                guard let context, let key else { return TANDEM_MHD_YES }
                let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
                box.headers[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
                return TANDEM_MHD_YES
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.headers
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, slot in
    guard let context, let connection, let url, let method, let uploadSize, let slot else { return TANDEM_MHD_NO }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    return daemon.handle(
        connection, url: String(cString: url), method: String(cString: method), upload: upload, uploadSize: uploadSize, slot: slot)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, slot, _ in
    guard let slot, let pending = slot.pointee else { return }
    Unmanaged<HTTPDaemon.PendingRequest>.fromOpaque(pending).release()
    slot.pointee = nil
    if let context { Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue().completed() }
}

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return -2 }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
    switch stream.next(into: buffer, capacity: capacity) {
    case .bytes(let count): return count
    case .end: return stream.isClientGone ? -2 : -1  // MHD_CONTENT_READER_END_WITH_ERROR / END_OF_STREAM
    }
}

private let streamFreed: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeRetainedValue()
    stream.clientDisconnected()
}
