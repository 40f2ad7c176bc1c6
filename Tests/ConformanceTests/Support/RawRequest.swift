import CTandemABI
import Tandem

/// The struct sizes of one request's input structs.
struct RequestLayout: Sendable, CustomStringConvertible {
    var request = StructSize.exact
    var message = StructSize.exact
    var options = StructSize.exact

    var description: String { "request \(request), messages \(message), options \(options)" }

    /// The smaller sizes: what an older host knows at least.
    static let smallerRequestEnd = end(of: \tandem_request.message_count)
    static let smallerMessageEnd = end(of: \tandem_message.content)
    static let smallerOptionsEnd = end(of: \tandem_options.max_tokens)
}

/// Lays `request` out with the given struct sizes (arrays at their element's stride, as the ABI
/// says) and calls `body` with it. Everything stays valid until `body` returns.
func withRawRequest<R>(_ request: BackendRequest, _ layout: RequestLayout, _ body: (UnsafePointer<tandem_request>) throws -> R) rethrows -> R {
    try request.withCRequest { exact in
        let e = exact.pointee
        let stride = layout.message.bytes(tandem_message.self, smallerEndsAt: RequestLayout.smallerMessageEnd)
        let messages = UnsafeMutableRawPointer.allocate(byteCount: stride * e.message_count + SizedStruct<tandem_message>.slack, alignment: 16)
        defer { messages.deallocate() }
        messages.initializeMemory(as: UInt8.self, repeating: SizedStruct<tandem_message>.guardByte, count: stride * e.message_count + SizedStruct<tandem_message>.slack)
        for index in 0..<e.message_count {
            var message = e.messages![index]
            message.struct_size = UInt32(stride)
            withUnsafeBytes(of: message) { bytes in
                (messages + index * stride).copyMemory(from: bytes.baseAddress!, byteCount: min(stride, bytes.count))
            }
        }
        var options: SizedStruct<tandem_options>?
        if let cOptions = e.options {
            options = SizedStruct(cOptions.pointee, size: layout.options.bytes(tandem_options.self, smallerEndsAt: RequestLayout.smallerOptionsEnd))
        }
        var copy = e
        copy.messages = UnsafePointer(messages.assumingMemoryBound(to: tandem_message.self))
        copy.options = options.map { UnsafePointer($0.pointer) }
        let sized = SizedStruct(copy, size: layout.request.bytes(tandem_request.self, smallerEndsAt: RequestLayout.smallerRequestEnd))
        return try withExtendedLifetime(options) { try body(sized.pointer) }
    }
}
