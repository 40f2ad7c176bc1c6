import CTandemABI

/// Everything one generation reads: the ABI's `tandem_request` as Swift values.
public struct BackendRequest: Hashable, Sendable {
    public var messages: [Message]
    public var tools: [ToolDeclaration]
    public var options: BackendOptions
    /// BCP 47 (`"en"`, `"de-CH"`), or nil for "any".
    public var locale: String?

    public init(messages: [Message], tools: [ToolDeclaration] = [], options: BackendOptions = BackendOptions(), locale: String? = nil) {
        self.messages = messages
        self.tools = tools
        self.options = options
        self.locale = locale
    }
}

// MARK: - Host side: Swift values -> C, borrowed for one call

extension BackendRequest {
    /// Calls `body` with a `tandem_request` whose every pointer stays valid until `body` returns.
    public func withCRequest<R>(_ body: (UnsafePointer<tandem_request>) throws -> R) rethrows -> R {
        let arena = CStringArena()
        let cMessages = messages.map { message -> tandem_message in
            let calls = message.toolCalls.map { call in
                tandem_tool_call(
                    struct_size: UInt32(MemoryLayout<tandem_tool_call>.size), id: arena.str(call.id),
                    name: arena.str(call.name), arguments_json: arena.str(call.argumentsJSON),
                    signature: arena.str(call.signature))
            }
            return tandem_message(
                struct_size: UInt32(MemoryLayout<tandem_message>.size), role: message.role.cValue,
                content: arena.str(message.content), tool_calls: arena.array(calls),
                tool_call_count: calls.count, call_id: arena.str(message.callId),
                tool_name: arena.str(message.toolName))
        }
        let cTools = tools.map { tool in
            tandem_tool(
                struct_size: UInt32(MemoryLayout<tandem_tool>.size), name: arena.str(tool.name),
                description: arena.str(tool.description), parameters_schema: arena.str(tool.parametersSchema))
        }
        var request = tandem_request(
            struct_size: UInt32(MemoryLayout<tandem_request>.size), messages: arena.array(cMessages),
            message_count: cMessages.count, tools: arena.array(cTools), tool_count: cTools.count,
            options: arena.value(options.cOptions(arena: arena)),
            locale: locale.map { arena.cString($0) })
        return try withExtendedLifetime(arena) { try body(&request) }
    }
}

extension BackendOptions {
    fileprivate func cOptions(arena: CStringArena) -> tandem_options {
        var o = tandem_options()
        o.struct_size = UInt32(MemoryLayout<tandem_options>.size)
        var present: tandem_option_bits = 0
        if let sampling { present |= TANDEM_OPT_SAMPLING; o.sampling = sampling.cValue }
        if let temperature { present |= TANDEM_OPT_TEMPERATURE; o.temperature = temperature }
        if let topP { present |= TANDEM_OPT_TOP_P; o.top_p = topP }
        if let topK { present |= TANDEM_OPT_TOP_K; o.top_k = UInt32(clamping: topK) }
        if let seed { present |= TANDEM_OPT_SEED; o.seed = seed }
        if let maxTokens { present |= TANDEM_OPT_MAX_TOKENS; o.max_tokens = UInt32(clamping: maxTokens) }
        if let stopSequences {
            present |= TANDEM_OPT_STOP
            o.stop = arena.array(stopSequences.map { arena.str($0) })
            o.stop_count = stopSequences.count
        }
        if let thinkingLevel { present |= TANDEM_OPT_THINKING_LEVEL; o.thinking_level = thinkingLevel.cValue }
        if let thinkingBudget { present |= TANDEM_OPT_THINKING_BUDGET; o.thinking_budget = Int32(clamping: thinkingBudget) }
        if let responseSchema { present |= TANDEM_OPT_RESPONSE_SCHEMA; o.response_schema = arena.str(responseSchema) }
        let extras = self.extras.sorted { $0.key < $1.key }.map { tandem_kv(key: arena.str($0.key), value: arena.str($0.value)) }
        o.extras = arena.array(extras)
        o.extra_count = extras.count
        o.present = present
        return o
    }
}

// MARK: - Plugin side: C -> Swift values, validated

extension BackendRequest {
    /// Decodes and validates a request a plugin received. Fields beyond the writer's
    /// `struct_size` take their defaults. Throws `invalidArgument` naming the bad field.
    public init(_ pointer: UnsafePointer<tandem_request>?) throws(BackendFailure) {
        guard let pointer else { throw BackendFailure(.invalidArgument, "request is NULL") }
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_request>) -> Bool { structHasField(pointer, structSize: size, field) }
        guard has(\.message_count) else { throw BackendFailure(.invalidArgument, "request.struct_size \(size) is too small") }
        let r = pointer.pointee
        guard r.message_count > 0, let cMessages = r.messages else {
            throw BackendFailure(.invalidArgument, "request has no messages")
        }
        var messages: [Message] = []
        messages.reserveCapacity(r.message_count)
        for (index, element) in try sizedElements(cMessages, count: r.message_count, path: "messages").enumerated() {
            messages.append(try Message(element, path: "messages[\(index)]"))
        }
        var tools: [ToolDeclaration] = []
        if has(\.tool_count), r.tool_count > 0 {
            guard let cTools = r.tools else { throw BackendFailure(.invalidArgument, "request.tools is NULL with tool_count \(r.tool_count)") }
            for (index, element) in try sizedElements(cTools, count: r.tool_count, path: "tools").enumerated() {
                tools.append(try ToolDeclaration(element, path: "tools[\(index)]"))
            }
        }
        var options = BackendOptions()
        if has(\.options), let cOptions = r.options { options = try BackendOptions(cOptions) }
        var locale: String?
        if has(\.locale), let cLocale = r.locale { locale = String(cString: cLocale) }
        self.init(messages: messages, tools: tools, options: options, locale: locale)
    }
}

/// The elements of an ABI array of sized structs, `struct_size` of the first element apart (the
/// header's `TANDEM_ELEMENT`): a writer built against another header version uses another stride.
func sizedElements<T>(_ base: UnsafePointer<T>, count: Int, path: String) throws(BackendFailure) -> [UnsafePointer<T>] {
    let stride = Int(UnsafeRawPointer(base).load(as: UInt32.self))
    guard stride >= MemoryLayout<UInt32>.size, stride % MemoryLayout<T>.alignment == 0 else {
        throw BackendFailure(.invalidArgument, "\(path)[0].struct_size \(stride) is too small or not a multiple of \(MemoryLayout<T>.alignment)")
    }
    var elements: [UnsafePointer<T>] = []
    elements.reserveCapacity(count)
    for index in 0..<count {
        let element = UnsafeRawPointer(base) + index * stride
        let size = Int(element.load(as: UInt32.self))
        guard size == stride else {
            throw BackendFailure(.invalidArgument, "\(path)[\(index)].struct_size \(size) differs from the array's \(stride)")
        }
        elements.append(element.assumingMemoryBound(to: T.self))
    }
    return elements
}

func decodeText(_ str: tandem_str, _ path: @autoclosure () -> String) throws(BackendFailure) -> String {
    guard let text = String(validating: str) else {
        throw BackendFailure(.invalidArgument, "\(path()) is not valid UTF-8 (or NULL with a size)")
    }
    return text
}

extension Message {
    init(_ pointer: UnsafePointer<tandem_message>, path: String) throws(BackendFailure) {
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_message>) -> Bool { structHasField(pointer, structSize: size, field) }
        guard has(\.content) else { throw BackendFailure(.invalidArgument, "\(path).struct_size \(size) is too small") }
        let m = pointer.pointee
        guard let role = MessageRole(cValue: m.role) else { throw BackendFailure(.invalidArgument, "\(path).role \(m.role) is unknown") }
        var calls: [ToolCall] = []
        if has(\.tool_call_count), m.tool_call_count > 0 {
            guard let cCalls = m.tool_calls else { throw BackendFailure(.invalidArgument, "\(path).tool_calls is NULL") }
            for (index, element) in try sizedElements(cCalls, count: m.tool_call_count, path: "\(path).tool_calls").enumerated() {
                calls.append(try ToolCall(element, path: "\(path).tool_calls[\(index)]"))
            }
        }
        self.init(
            role: role, content: try decodeText(m.content, "\(path).content"), toolCalls: calls,
            callId: has(\.call_id) ? try decodeText(m.call_id, "\(path).call_id") : "",
            toolName: has(\.tool_name) ? try decodeText(m.tool_name, "\(path).tool_name") : "")
    }
}

extension ToolCall {
    /// Decodes a call from a request or an event.
    public init(_ pointer: UnsafePointer<tandem_tool_call>, path: String) throws(BackendFailure) {
        let size = pointer.pointee.struct_size
        guard structHasField(pointer, structSize: size, \.arguments_json) else {
            throw BackendFailure(.invalidArgument, "\(path).struct_size \(size) is too small")
        }
        let c = pointer.pointee
        self.init(
            id: try decodeText(c.id, "\(path).id"), name: try decodeText(c.name, "\(path).name"),
            argumentsJSON: try decodeText(c.arguments_json, "\(path).arguments_json"),
            signature: structHasField(pointer, structSize: size, \.signature) ? try decodeText(c.signature, "\(path).signature") : "")
    }

    /// Calls `body` with a C view of this call, valid until `body` returns.
    public func withCToolCall<R>(_ body: (UnsafePointer<tandem_tool_call>) throws -> R) rethrows -> R {
        let arena = CStringArena()
        var call = tandem_tool_call(
            struct_size: UInt32(MemoryLayout<tandem_tool_call>.size), id: arena.str(id), name: arena.str(name),
            arguments_json: arena.str(argumentsJSON), signature: arena.str(signature))
        return try withExtendedLifetime(arena) { try body(&call) }
    }
}

extension ToolDeclaration {
    init(_ pointer: UnsafePointer<tandem_tool>, path: String) throws(BackendFailure) {
        let size = pointer.pointee.struct_size
        guard structHasField(pointer, structSize: size, \.parameters_schema) else {
            throw BackendFailure(.invalidArgument, "\(path).struct_size \(size) is too small")
        }
        let t = pointer.pointee
        self.init(
            name: try decodeText(t.name, "\(path).name"), description: try decodeText(t.description, "\(path).description"),
            parametersSchema: try decodeText(t.parameters_schema, "\(path).parameters_schema"))
    }
}

extension BackendOptions {
    init(_ pointer: UnsafePointer<tandem_options>) throws(BackendFailure) {
        let size = pointer.pointee.struct_size
        func has(_ field: PartialKeyPath<tandem_options>) -> Bool { structHasField(pointer, structSize: size, field) }
        guard has(\.present) else { throw BackendFailure(.invalidArgument, "options.struct_size \(size) is too small") }
        let o = pointer.pointee
        func isSet(_ bit: tandem_option_bits, _ field: PartialKeyPath<tandem_options>) -> Bool {
            (o.present & bit) != 0 && has(field)
        }
        self.init()
        if isSet(TANDEM_OPT_SAMPLING, \.sampling) {
            guard let mode = SamplingMode(cValue: o.sampling) else {
                throw BackendFailure(.invalidArgument, "options.sampling \(o.sampling) is unknown")
            }
            sampling = mode
        }
        if isSet(TANDEM_OPT_TEMPERATURE, \.temperature) { temperature = o.temperature }
        if isSet(TANDEM_OPT_TOP_P, \.top_p) { topP = o.top_p }
        if isSet(TANDEM_OPT_TOP_K, \.top_k) { topK = Int(o.top_k) }
        if isSet(TANDEM_OPT_SEED, \.seed) { seed = o.seed }
        if isSet(TANDEM_OPT_MAX_TOKENS, \.max_tokens) { maxTokens = Int(o.max_tokens) }
        if isSet(TANDEM_OPT_STOP, \.stop_count) {
            var stops: [String] = []
            if o.stop_count > 0 {
                guard let cStops = o.stop else { throw BackendFailure(.invalidArgument, "options.stop is NULL") }
                for index in 0..<o.stop_count { stops.append(try decodeText(cStops[index], "options.stop[\(index)]")) }
            }
            stopSequences = stops
        }
        if isSet(TANDEM_OPT_THINKING_LEVEL, \.thinking_level) {
            guard let level = ThinkingLevel(cValue: o.thinking_level) else {
                throw BackendFailure(.invalidArgument, "options.thinking_level \(o.thinking_level) is unknown")
            }
            thinkingLevel = level
        }
        if isSet(TANDEM_OPT_THINKING_BUDGET, \.thinking_budget) { thinkingBudget = Int(o.thinking_budget) }
        if isSet(TANDEM_OPT_RESPONSE_SCHEMA, \.response_schema) {
            responseSchema = try decodeText(o.response_schema, "options.response_schema")
        }
        if has(\.extra_count), o.extra_count > 0 {
            guard let cExtras = o.extras else { throw BackendFailure(.invalidArgument, "options.extras is NULL") }
            for index in 0..<o.extra_count {
                extras[try decodeText(cExtras[index].key, "options.extras[\(index)].key")] =
                    try decodeText(cExtras[index].value, "options.extras[\(index)].value")
            }
        }
        if let problem = validationProblem() { throw BackendFailure(.invalidArgument, problem) }
    }
}
