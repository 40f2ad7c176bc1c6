import Glibc

/// The framed protocol between the host and a `tandem-plugin-host` child (Isolation/README.md).
///
/// A frame is a 4-byte little-endian payload length, then the payload: one kind byte and the
/// kind's fields. Fields are fixed-width little-endian integers and length-prefixed UTF-8, with
/// no field names or tags: both ends are built from this file, and the child is found next to
/// the host binary, so they never disagree on the layout.
enum Wire {
    /// Larger frames are refused before anything is allocated for them (a garbage length from a
    /// broken child must not make the host allocate gigabytes).
    static let maximumFrame = 64 << 20

    /// The child's sockets, as fds 3, 4, ...: the control channel (cancel, read by a thread of
    /// its own so that it arrives while a call blocks), the query channel (availability,
    /// answered while a call runs), then the call channels (one call at a time each; several
    /// only matter for a model with `.concurrentCalls`).
    static let controlFD: Int32 = 3
    static let queryFD: Int32 = 4
    static let firstCallFD: Int32 = 5
    static let callChannels = 4
    static var socketCount: Int { 2 + callChannels }

    /// The bits of a `flow` frame: the host's consumer said stop; the host's token is cancelled
    /// (sent with the answer, so the plugin sees the cancel at its next poll, as in-process).
    static let flowStop: UInt8 = 1
    static let flowCancelled: UInt8 = 2

    enum Kind: UInt8 {
        // host → child, on a call channel; `flow` answers each event (flags: stop, cancelled)
        case open = 1, generate, embed, countTokens, flow, tokenEmbed, scoreText
        // host → child, on the control channel: (channel, call id)
        case cancel = 10
        // host → child, on the query channel
        case availability = 20
        // child → host
        case ready = 30, event, result, failure, embeddings, tokenCount, availabilityAnswer, tokenEmbeddings, logLikelihood
        // catalog probe: host → child (the folder), then child → host (each file it enters, then
        // what it found)
        case probe = 40, probing, catalog
    }

    struct ProtocolError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

// MARK: - Writing

/// Builds one frame; `finish()` fills in the length.
struct WireWriter {
    private(set) var bytes: [UInt8]

    init(_ kind: Wire.Kind, capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(contentsOf: [0, 0, 0, 0, kind.rawValue])
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
    mutating func f32(_ value: Float) { u32(value.bitPattern) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optional<T>(_ value: T?, _ write: (inout WireWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func array<T>(_ values: [T], _ write: (inout WireWriter, T) -> Void) {
        u32(UInt32(values.count))
        for value in values { write(&self, value) }
    }

    /// The frame, its length written.
    consuming func finish() -> [UInt8] {
        let length = UInt32(bytes.count - 4).littleEndian
        withUnsafeBytes(of: length) { raw in for index in 0..<4 { bytes[index] = raw[index] } }
        return bytes
    }
}

// MARK: - Reading

/// Reads the fields of one frame's payload, every read bounds-checked.
struct WireReader {
    let kind: Wire.Kind
    private let payload: [UInt8]
    private var offset = 1

    init(payload: [UInt8]) throws(Wire.ProtocolError) {
        guard let first = payload.first else { throw Wire.ProtocolError("an empty frame") }
        guard let kind = Wire.Kind(rawValue: first) else { throw Wire.ProtocolError("a frame of unknown kind \(first)") }
        self.kind = kind
        self.payload = payload
    }

    /// Bytes not read yet.
    var remaining: Int { payload.count - offset }

    private mutating func take(_ count: Int, _ what: String) throws(Wire.ProtocolError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= payload.count - offset else {
            throw Wire.ProtocolError("\(kind) frame ends inside \(what) (\(count) bytes at offset \(offset) of \(payload.count))")
        }
        defer { offset += count }
        return payload[offset..<(offset + count)]
    }

    private mutating func fixed<T: FixedWidthInteger>(_ type: T.Type, _ what: String) throws(Wire.ProtocolError) -> T {
        let slice = try take(MemoryLayout<T>.size, what)
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { raw in for (index, byte) in slice.enumerated() { raw[index] = byte } }
        return T(littleEndian: value)
    }

    mutating func u8(_ what: String) throws(Wire.ProtocolError) -> UInt8 { try fixed(UInt8.self, what) }
    mutating func u32(_ what: String) throws(Wire.ProtocolError) -> UInt32 { try fixed(UInt32.self, what) }
    mutating func i32(_ what: String) throws(Wire.ProtocolError) -> Int32 { Int32(bitPattern: try u32(what)) }
    mutating func u64(_ what: String) throws(Wire.ProtocolError) -> UInt64 { try fixed(UInt64.self, what) }
    mutating func int(_ what: String) throws(Wire.ProtocolError) -> Int { Int(Int64(bitPattern: try u64(what))) }
    mutating func f32(_ what: String) throws(Wire.ProtocolError) -> Float { Float(bitPattern: try u32(what)) }
    mutating func f64(_ what: String) throws(Wire.ProtocolError) -> Double { Double(bitPattern: try u64(what)) }

    mutating func bool(_ what: String) throws(Wire.ProtocolError) -> Bool {
        switch try u8(what) {
        case 0: return false
        case 1: return true
        case let other: throw Wire.ProtocolError("\(what) is \(other), not a boolean")
        }
    }

    mutating func string(_ what: String) throws(Wire.ProtocolError) -> String {
        let count = Int(try u32("\(what)'s length"))
        let bytes = try take(count, what)
        guard let text = bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
            throw Wire.ProtocolError("\(what) is not valid UTF-8")
        }
        return text
    }

    mutating func optional<T>(_ what: String, _ read: (inout WireReader) throws(Wire.ProtocolError) -> T) throws(Wire.ProtocolError) -> T? {
        try bool("\(what)'s presence") ? try read(&self) : nil
    }

    /// An array whose every element takes at least `minimumElement` bytes, so a garbage count is
    /// refused before anything is reserved for it.
    mutating func array<T>(
        _ what: String, minimumElement: Int = 1, _ read: (inout WireReader) throws(Wire.ProtocolError) -> T
    ) throws(Wire.ProtocolError) -> [T] {
        let count = Int(try u32("\(what)'s count"))
        guard count <= (payload.count - offset) / max(minimumElement, 1) else {
            throw Wire.ProtocolError("\(what) claims \(count) elements, more than the frame holds")
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }

    /// Every frame is read to its end: trailing bytes mean the two sides disagree.
    func end() throws(Wire.ProtocolError) {
        guard offset == payload.count else {
            throw Wire.ProtocolError("\(kind) frame has \(payload.count - offset) unread bytes")
        }
    }
}

// MARK: - One end of a socket

/// A connected socket carrying frames, with a read buffer. Reads belong to one thread at a time
/// (the caller of the call it serves); writes are whole frames.
final class WireSocket: @unchecked Sendable {
    let fd: Int32
    /// Received bytes not yet handed out are `storage[start..<end]`.
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    private var start = 0
    private var end = 0

    init(fd: Int32) { self.fd = fd }

    deinit {
        close(fd)
        storage.deallocate()
    }

    /// Writes a whole frame. False when the peer is gone (never SIGPIPE: `MSG_NOSIGNAL`).
    @discardableResult
    func send(_ frame: [UInt8]) -> Bool {
        frame.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    enum Received {
        case frame(WireReader)
        /// The peer closed its end (or the socket failed).
        case closed
        /// Nothing arrived before the timeout.
        case timedOut
    }

    /// The next frame; waits up to `timeoutMilliseconds` (-1: for ever) for each chunk of bytes.
    func receive(timeoutMilliseconds: Int32 = -1) throws(Wire.ProtocolError) -> Received {
        while true {
            if end - start >= 4 {
                var length = 0
                for index in 0..<4 { length |= Int(storage[start + index]) << (8 * index) }
                guard length > 0, length <= Wire.maximumFrame else {
                    throw Wire.ProtocolError("a frame length of \(length) bytes (the limit is \(Wire.maximumFrame))")
                }
                if end - start >= 4 + length {
                    let payload = Array(UnsafeRawBufferPointer(rebasing: storage[(start + 4)..<(start + 4 + length)]))
                    start += 4 + length
                    if start == end { start = 0; end = 0 }
                    return .frame(try WireReader(payload: payload))
                }
                makeRoom(for: 4 + length)
            } else {
                makeRoom(for: 4)
            }
            if timeoutMilliseconds >= 0 {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, timeoutMilliseconds)
                if ready < 0, errno == EINTR { continue }
                if ready == 0 { return .timedOut }
            }
            let count = recv(fd, storage.baseAddress! + end, storage.count - end, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return .closed }
            end += count
        }
    }

    /// Moves the unread bytes to the front and grows the buffer so that `frame` bytes fit.
    private func makeRoom(for frame: Int) {
        guard storage.count - start < frame || start > 0 && end == storage.count else { return }
        let pending = end - start
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count, frame), alignment: 8)
        if pending > 0 { bigger.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: pending) }
        storage.deallocate()
        storage = bigger
        start = 0
        end = pending
    }

    /// Whether a frame (or the peer's close) is waiting to be read, without blocking.
    var hasInput: Bool {
        if end > start { return true }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }
}

// MARK: - The values that cross

extension WireWriter {
    mutating func request(_ request: BackendRequest) {
        array(request.messages) { w, message in
            w.u8(UInt8(MessageRole.allCases.firstIndex(of: message.role)!))
            w.string(message.content)
            w.array(message.toolCalls) { w, call in w.toolCall(call) }
            w.string(message.callId)
            w.string(message.toolName)
        }
        array(request.tools) { w, tool in
            w.string(tool.name)
            w.string(tool.description)
            w.string(tool.parametersSchema)
        }
        let o = request.options
        optional(o.sampling) { w, v in w.u8(UInt8(SamplingMode.allCases.firstIndex(of: v)!)) }
        optional(o.temperature) { w, v in w.f32(v) }
        optional(o.topP) { w, v in w.f32(v) }
        optional(o.topK) { w, v in w.int(v) }
        optional(o.seed) { w, v in w.u64(v) }
        optional(o.maxTokens) { w, v in w.int(v) }
        optional(o.stopSequences) { w, v in w.array(v) { w, s in w.string(s) } }
        optional(o.thinkingLevel) { w, v in w.u8(UInt8(ThinkingLevel.allCases.firstIndex(of: v)!)) }
        optional(o.thinkingBudget) { w, v in w.int(v) }
        optional(o.responseSchema) { w, v in w.string(v) }
        array(o.extras.sorted { $0.key < $1.key }) { w, pair in
            w.string(pair.key)
            w.string(pair.value)
        }
        optional(request.locale) { w, v in w.string(v) }
    }

    mutating func toolCall(_ call: ToolCall) {
        string(call.id)
        string(call.name)
        string(call.argumentsJSON)
        string(call.signature)
    }

    mutating func usage(_ usage: Usage) {
        int(usage.promptTokens)
        int(usage.outputTokens)
        int(usage.thinkingTokens)
    }

    mutating func event(_ event: BackendEvent) {
        switch event {
        case .text(let text): u8(0); string(text)
        case .toolCall(let call): u8(1); toolCall(call)
        case .usage(let value): u8(2); usage(value)
        }
    }

    mutating func result(_ result: BackendResult) {
        i32(result.finish.rawValue)
        string(result.modelVersion)
        usage(result.usage)
    }

    mutating func failure(_ failure: BackendFailure) {
        i32(failure.status.rawValue)
        string(failure.message)
        i32(failure.httpStatus)
        i32(failure.osError)
        u64(failure.retryAfterMilliseconds)
        u64(failure.contextLimit)
        u64(failure.contextRequested)
    }

    mutating func info(_ info: ModelInfo) {
        string(info.id)
        string(info.displayName)
        u8(UInt8(ModelKind.allCases.firstIndex(of: info.kind)!))
        u64(info.capabilities.rawValue)
        int(info.contextLength)
        int(info.embeddingDimensions)
    }

    mutating func availability(_ availability: Availability) {
        switch availability {
        case .available:
            i32(0)
        case .unavailable(let reason, let detail, let progress):
            i32(reason.rawValue)
            string(detail)
            optional(progress) { w, v in w.f64(v) }
        }
    }

    mutating func rejection(_ rejection: PluginRejection) {
        string(rejection.code.name)
        string(rejection.path)
        string(rejection.message)
    }

    mutating func identity(_ identity: PluginIdentity) {
        string(identity.id)
        string(identity.name)
        string(identity.version)
        u32(identity.abiVersion)
        string(identity.path)
    }
}

extension WireReader {
    private mutating func index<T: CaseIterable>(_ type: T.Type, _ what: String) throws(Wire.ProtocolError) -> T where T.AllCases == [T] {
        let raw = Int(try u8(what))
        guard raw < T.allCases.count else { throw Wire.ProtocolError("\(what) \(raw) is unknown") }
        return T.allCases[raw]
    }

    mutating func request() throws(Wire.ProtocolError) -> BackendRequest {
        let messages = try array("messages") { (r: inout WireReader) throws(Wire.ProtocolError) in
            Message(
                role: try r.index(MessageRole.self, "role"), content: try r.string("content"),
                toolCalls: try r.array("tool calls") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.toolCall() },
                callId: try r.string("call id"), toolName: try r.string("tool name"))
        }
        let tools = try array("tools") { (r: inout WireReader) throws(Wire.ProtocolError) in
            ToolDeclaration(name: try r.string("tool name"), description: try r.string("tool description"),
                            parametersSchema: try r.string("tool schema"))
        }
        var o = BackendOptions()
        o.sampling = try optional("sampling") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.index(SamplingMode.self, "sampling") }
        o.temperature = try optional("temperature") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.f32("temperature") }
        o.topP = try optional("top-p") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.f32("top-p") }
        o.topK = try optional("top-k") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.int("top-k") }
        o.seed = try optional("seed") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.u64("seed") }
        o.maxTokens = try optional("max tokens") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.int("max tokens") }
        o.stopSequences = try optional("stop") { (r: inout WireReader) throws(Wire.ProtocolError) in
            try r.array("stop") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("stop sequence") }
        }
        o.thinkingLevel = try optional("thinking level") { (r: inout WireReader) throws(Wire.ProtocolError) in
            try r.index(ThinkingLevel.self, "thinking level")
        }
        o.thinkingBudget = try optional("thinking budget") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.int("thinking budget") }
        o.responseSchema = try optional("schema") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("schema") }
        for (key, value) in try array("extras", minimumElement: 8, { (r: inout WireReader) throws(Wire.ProtocolError) in
            (try r.string("extra key"), try r.string("extra value"))
        }) { o.extras[key] = value }
        let locale = try optional("locale") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("locale") }
        return BackendRequest(messages: messages, tools: tools, options: o, locale: locale)
    }

    mutating func toolCall() throws(Wire.ProtocolError) -> ToolCall {
        ToolCall(id: try string("call id"), name: try string("call name"), argumentsJSON: try string("call arguments"),
                 signature: try string("call signature"))
    }

    mutating func usage() throws(Wire.ProtocolError) -> Usage {
        Usage(promptTokens: try int("prompt tokens"), outputTokens: try int("output tokens"), thinkingTokens: try int("thinking tokens"))
    }

    mutating func event() throws(Wire.ProtocolError) -> BackendEvent {
        switch try u8("event kind") {
        case 0:
            let text = try string("event text")
            guard !text.isEmpty else { throw Wire.ProtocolError("an empty text event") }
            return .text(text)
        case 1: return .toolCall(try toolCall())
        case 2: return .usage(try usage())
        case let other: throw Wire.ProtocolError("event kind \(other) is unknown")
        }
    }

    mutating func result() throws(Wire.ProtocolError) -> BackendResult {
        BackendResult(finish: FinishReason(rawValue: try i32("finish")), modelVersion: try string("model version"), usage: try usage())
    }

    mutating func failure() throws(Wire.ProtocolError) -> BackendFailure {
        var failure = BackendFailure(BackendStatus(rawValue: try i32("status")), try string("message"))
        failure.httpStatus = try i32("HTTP status")
        failure.osError = try i32("OS error")
        failure.retryAfterMilliseconds = try u64("retry after")
        failure.contextLimit = try u64("context limit")
        failure.contextRequested = try u64("context requested")
        guard failure.status.rawValue < 0 else { throw Wire.ProtocolError("failure status \(failure.status.rawValue) is not an error") }
        return failure
    }

    mutating func info() throws(Wire.ProtocolError) -> ModelInfo {
        ModelInfo(
            id: try string("model id"), displayName: try string("display name"), kind: try index(ModelKind.self, "model kind"),
            capabilities: ModelCapabilities(rawValue: try u64("capabilities")), contextLength: try int("context length"),
            embeddingDimensions: try int("embedding dimensions"))
    }

    mutating func availability() throws(Wire.ProtocolError) -> Availability {
        let raw = try i32("availability reason")
        guard raw != 0 else { return .available }
        let reason = AvailabilityReason(rawValue: raw)
        guard AvailabilityReason.all.contains(reason) else { throw Wire.ProtocolError("availability reason \(raw) is unknown") }
        return .unavailable(reason, detail: try string("availability detail"),
                            progress: try optional("progress") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.f64("progress") })
    }

    mutating func rejection() throws(Wire.ProtocolError) -> PluginRejection {
        let code = try string("rejection code")
        guard let known = PluginRejection.Code(name: code) else { throw Wire.ProtocolError("rejection code \(code) is unknown") }
        return PluginRejection(known, path: try string("rejected path"), try string("rejection message"))
    }

    mutating func identity() throws(Wire.ProtocolError) -> PluginIdentity {
        PluginIdentity(id: try string("plugin id"), name: try string("plugin name"), version: try string("plugin version"),
                       abiVersion: try u32("ABI version"), path: try string("plugin path"))
    }
}
