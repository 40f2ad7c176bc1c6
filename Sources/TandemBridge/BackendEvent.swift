import CTandemABI

/// Token counts of one generation.
public struct Usage: Hashable, Sendable {
    public var promptTokens: Int
    /// Response tokens, thinking excluded.
    public var outputTokens: Int
    /// Counted, never shown as text.
    public var thinkingTokens: Int

    public init(promptTokens: Int = 0, outputTokens: Int = 0, thinkingTokens: Int = 0) {
        self.promptTokens = promptTokens
        self.outputTokens = outputTokens
        self.thinkingTokens = thinkingTokens
    }
}

/// One streamed event of a generation.
public enum BackendEvent: Hashable, Sendable {
    /// The next piece of the answer: whole UTF-8 characters, never empty.
    case text(String)
    case toolCall(ToolCall)
    case usage(Usage)
}

extension BackendEvent {
    /// Decodes an event a plugin delivered (host side).
    public init(_ pointer: UnsafePointer<tandem_event>) throws(BackendFailure) {
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_event>) -> Bool { structHasField(pointer, structSize: size, field) }
        let e = pointer.pointee
        switch e.kind {
        case TANDEM_EVENT_TEXT where has(\.text):
            self = .text(try decodeText(e.text, "event.text"))
        case TANDEM_EVENT_TOOL_CALL where has(\.tool_call):
            guard let call = e.tool_call else { throw BackendFailure(.decoding, "tool-call event without a call") }
            self = .toolCall(try ToolCall(call, path: "event.tool_call"))
        case TANDEM_EVENT_USAGE where has(\.usage):
            guard let usage = e.usage else { throw BackendFailure(.decoding, "usage event without usage") }
            let usageSize = usage.pointee.struct_size
            let u = usage.pointee
            self = .usage(Usage(
                promptTokens: structHasField(usage, structSize: usageSize, \.prompt_tokens) ? Int(u.prompt_tokens) : 0,
                outputTokens: structHasField(usage, structSize: usageSize, \.output_tokens) ? Int(u.output_tokens) : 0,
                thinkingTokens: structHasField(usage, structSize: usageSize, \.thinking_tokens) ? Int(u.thinking_tokens) : 0))
        default:
            throw BackendFailure(.decoding, "event of unknown kind \(e.kind) or struct_size \(size) too small")
        }
    }

    /// Calls `body` with a C view of this event, valid until `body` returns (plugin side).
    public func withCEvent<R>(_ body: (UnsafePointer<tandem_event>) throws -> R) rethrows -> R {
        var event = tandem_event()
        event.struct_size = UInt32(MemoryLayout<tandem_event>.size)
        switch self {
        case .text(let text):
            event.kind = TANDEM_EVENT_TEXT
            var text = text
            return try text.withUTF8 { bytes in
                event.text = tandem_str(
                    data: UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), size: bytes.count)
                return try body(&event)
            }
        case .toolCall(let call):
            event.kind = TANDEM_EVENT_TOOL_CALL
            return try call.withCToolCall { cCall in
                event.tool_call = cCall
                return try body(&event)
            }
        case .usage(let usage):
            event.kind = TANDEM_EVENT_USAGE
            var cUsage = tandem_usage(
                struct_size: UInt32(MemoryLayout<tandem_usage>.size), prompt_tokens: UInt32(clamping: usage.promptTokens),
                output_tokens: UInt32(clamping: usage.outputTokens), thinking_tokens: UInt32(clamping: usage.thinkingTokens))
            return try withUnsafePointer(to: &cUsage) { pointer in
                event.usage = pointer
                return try body(&event)
            }
        }
    }
}
