import CTandemABI
import Tandem

/// The struct sizes of one request's input structs.
struct RequestLayout: Sendable, CustomStringConvertible {
    var request = StructSize.exact
    var message = StructSize.exact
    var options = StructSize.exact
    var tool = StructSize.exact
    var toolCall = StructSize.exact

    var description: String { "request \(request), messages \(message), options \(options), tools \(tool), tool calls \(toolCall)" }

    /// The smaller sizes: what an older host knows at least.
    static let smallerRequestEnd = end(of: \tandem_request.message_count)
    static let smallerMessageEnd = end(of: \tandem_message.content)
    static let smallerOptionsEnd = end(of: \tandem_options.max_tokens)
    static let smallerToolEnd = end(of: \tandem_tool.parameters_schema)
    static let smallerToolCallEnd = end(of: \tandem_tool_call.arguments_json)
}

/// Lays `request` out with the given struct sizes (arrays at their element's stride, as the ABI
/// says) and calls `body` with it. Everything stays valid until `body` returns.
func withRawRequest<R>(_ request: BackendRequest, _ layout: RequestLayout, _ body: (UnsafePointer<tandem_request>) throws -> R) rethrows -> R {
    try request.withCRequest { exact in
        let arrays = SizedArrays()
        let e = exact.pointee
        var messages: [tandem_message] = []
        for index in 0..<e.message_count {
            var message = e.messages![index]
            if message.tool_call_count > 0 {
                let calls = Array(UnsafeBufferPointer(start: message.tool_calls, count: message.tool_call_count))
                message.tool_calls = arrays.lay(calls, size: layout.toolCall, smallerEndsAt: RequestLayout.smallerToolCallEnd)
            }
            messages.append(message)
        }
        var copy = e
        copy.messages = arrays.lay(messages, size: layout.message, smallerEndsAt: RequestLayout.smallerMessageEnd)
        if e.tool_count > 0 {
            copy.tools = arrays.lay(Array(UnsafeBufferPointer(start: e.tools, count: e.tool_count)), size: layout.tool, smallerEndsAt: RequestLayout.smallerToolEnd)
        }
        var options: SizedStruct<tandem_options>?
        if let cOptions = e.options {
            options = SizedStruct(cOptions.pointee, size: layout.options.bytes(tandem_options.self, smallerEndsAt: RequestLayout.smallerOptionsEnd))
        }
        copy.options = options.map { UnsafePointer($0.pointer) }
        let sized = SizedStruct(copy, size: layout.request.bytes(tandem_request.self, smallerEndsAt: RequestLayout.smallerRequestEnd))
        return try withExtendedLifetime((arrays, options)) { try body(sized.pointer) }
    }
}

/// Owns arrays of sized structs laid out at a chosen stride, each followed by a guard zone.
private final class SizedArrays {
    private var blocks: [UnsafeMutableRawPointer] = []

    func lay<T>(_ elements: [T], size: StructSize, smallerEndsAt end: Int) -> UnsafePointer<T> {
        let stride = size.bytes(T.self, smallerEndsAt: end)
        let bytes = stride * elements.count + SizedStruct<T>.slack
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: SizedStruct<T>.guardByte, count: bytes)
        for (index, element) in elements.enumerated() {
            withUnsafeBytes(of: element) { source in
                (block + index * stride).copyMemory(from: source.baseAddress!, byteCount: min(stride, source.count))
            }
            (block + index * stride).storeBytes(of: UInt32(stride), as: UInt32.self)
        }
        blocks.append(block)
        return UnsafePointer(block.assumingMemoryBound(to: T.self))
    }

    deinit { blocks.forEach { $0.deallocate() } }
}
