import CTandemABI

/// How a generation ended.
public struct FinishReason: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Natural end (end of turn or of text).
    public static let stop = FinishReason(rawValue: TANDEM_FINISH_STOP)
    public static let maxTokens = FinishReason(rawValue: TANDEM_FINISH_MAX_TOKENS)
    public static let stopSequence = FinishReason(rawValue: TANDEM_FINISH_STOP_SEQUENCE)
    /// The consumer asked to stop.
    public static let callback = FinishReason(rawValue: TANDEM_FINISH_CALLBACK)
    public static let toolCalls = FinishReason(rawValue: TANDEM_FINISH_TOOL_CALLS)
    public static let cancelled = FinishReason(rawValue: TANDEM_FINISH_CANCELLED)
    public static let error = FinishReason(rawValue: TANDEM_FINISH_ERROR)

    public var description: String {
        switch self {
        case .stop: "stop"
        case .maxTokens: "maxTokens"
        case .stopSequence: "stopSequence"
        case .callback: "stoppedByCaller"
        case .toolCalls: "toolCalls"
        case .cancelled: "cancelled"
        case .error: "error"
        default: "unknown(\(rawValue))"
        }
    }
}

/// What a finished generation reports besides its events.
public struct BackendResult: Hashable, Sendable {
    public var finish: FinishReason
    /// The serving model's own version string.
    public var modelVersion: String
    public var usage: Usage

    public init(finish: FinishReason, modelVersion: String, usage: Usage) {
        self.finish = finish
        self.modelVersion = modelVersion
        self.usage = usage
    }

    /// Fills a caller-owned `tandem_result` (which may be NULL), honouring its `struct_size`.
    public func write(to pointer: UnsafeMutablePointer<tandem_result>?) {
        guard let pointer else { return }
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_result>) -> Bool { structHasField(UnsafePointer(pointer), structSize: size, field) }
        if has(\.finish) { pointer.pointee.finish = finish.rawValue }
        if has(\.model_version_capacity) {
            writeCString(modelVersion, into: pointer.pointee.model_version, capacity: pointer.pointee.model_version_capacity)
        }
        if has(\.prompt_tokens) { pointer.pointee.prompt_tokens = UInt32(clamping: usage.promptTokens) }
        if has(\.output_tokens) { pointer.pointee.output_tokens = UInt32(clamping: usage.outputTokens) }
        if has(\.thinking_tokens) { pointer.pointee.thinking_tokens = UInt32(clamping: usage.thinkingTokens) }
    }
}
