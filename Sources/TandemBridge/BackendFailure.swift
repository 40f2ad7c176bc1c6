import CTandemABI

/// A failure reported across the ABI: a status code, a message, and the structured details of
/// `tandem_error`. Plugins throw it internally and write it out; the host reads it back.
public struct BackendFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var status: BackendStatus
    public var message: String
    /// HTTP status when a server answered, else 0.
    public var httpStatus: Int32 = 0
    /// errno or a library error code when relevant, else 0.
    public var osError: Int32 = 0
    /// How long the server asked to wait before trying again, in milliseconds, 0 when it did not
    /// say: `rateLimited`, and `serverError` with a `Retry-After`.
    public var retryAfterMilliseconds: UInt64 = 0
    /// `exceededContextWindowSize`: the model's context and what was asked for, in tokens.
    public var contextLimit: UInt64 = 0
    public var contextRequested: UInt64 = 0

    public init(_ status: BackendStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `status: message`, with the server's delay when it gave one (`retry after 2.0 s`).
    public var description: String {
        guard retryAfterMilliseconds > 0 else { return "\(status.name): \(message)" }
        let tenths = (retryAfterMilliseconds + 50) / 100
        return "\(status.name): \(message) (retry after \(tenths / 10).\(tenths % 10) s)"
    }

    /// Fills a caller-owned `tandem_error` (which may be NULL), honouring its `struct_size`.
    public func write(to pointer: UnsafeMutablePointer<tandem_error>?) {
        guard let pointer else { return }
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_error>) -> Bool { structHasField(UnsafePointer(pointer), structSize: size, field) }
        if has(\.code) { pointer.pointee.code = status.rawValue }
        if has(\.message_capacity) {
            writeCString(message, into: pointer.pointee.message, capacity: pointer.pointee.message_capacity)
        }
        if has(\.http_status) { pointer.pointee.http_status = httpStatus }
        if has(\.os_error) { pointer.pointee.os_error = osError }
        if has(\.retry_after_ms) { pointer.pointee.retry_after_ms = retryAfterMilliseconds }
        if has(\.context_limit) { pointer.pointee.context_limit = contextLimit }
        if has(\.context_requested) { pointer.pointee.context_requested = contextRequested }
    }

    /// Calls `body` with an empty `tandem_error` whose message buffer holds `capacity` bytes, then
    /// reads back what the callee wrote. Used by the host around every plugin call.
    public static func capture(
        capacity: Int = 1024, _ body: (UnsafeMutablePointer<tandem_error>) -> tandem_status
    ) -> (status: tandem_status, failure: BackendFailure) {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        buffer[0] = 0
        var error = tandem_error()
        error.struct_size = UInt32(MemoryLayout<tandem_error>.size)
        error.message = buffer
        error.message_capacity = capacity
        let status = body(&error)
        buffer[capacity - 1] = 0  // a misbehaving plugin cannot make us read past the buffer
        var failure = BackendFailure(BackendStatus(rawValue: status), String(cString: buffer))
        failure.httpStatus = error.http_status
        failure.osError = error.os_error
        failure.retryAfterMilliseconds = error.retry_after_ms
        failure.contextLimit = error.context_limit
        failure.contextRequested = error.context_requested
        return (status, failure)
    }
}
