/// An incremental parser of `text/event-stream` bodies (the WHATWG framing): LF, CRLF or CR line
/// ends, multi-line `data:`, `:` comments, `event:` names, `id:`/`retry:` ignored. Bytes may arrive
/// split at any point, a CRLF included. Lines that are not SSE fields at all (a raw JSON error some
/// servers write into the stream) are kept in `strayText` for the dialect to interpret.
public struct SSEParser {
    public struct Overflow: Error, Hashable, Sendable {
        public var limit: Int
    }

    /// Largest event (or line) accepted; a bigger one is an error, not an allocation without end.
    public let maxEventBytes: Int
    /// Lines that were neither fields, comments nor blank (capped at `maxStrayBytes`), LF-joined.
    public private(set) var strayText: [UInt8] = []
    public static let maxStrayBytes = 64 * 1024

    private var line: [UInt8] = []
    private var afterCR = false
    private var data: [UInt8] = []
    private var hasData = false
    private var name = ""

    public init(maxEventBytes: Int = 8 * 1024 * 1024) { self.maxEventBytes = maxEventBytes }

    /// True when a partly received event (fields without their blank line) is pending.
    public var hasPartialEvent: Bool { hasData || !line.isEmpty || !name.isEmpty }

    /// Feeds the next bytes; `onEvent` runs for every event they complete, in order.
    public mutating func feed<E: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ onEvent: (SSEEvent) throws(E) -> Void
    ) throws(E) -> Result<Void, Overflow> {
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                afterCR = false
                index += 1
                continue
            }
            if byte == 0x0A && afterCR && index == start && line.isEmpty {
                // The LF of a CRLF whose CR ended the previous line (possibly in an earlier chunk).
                afterCR = false
                index += 1
                start = index
                continue
            }
            afterCR = byte == 0x0D
            let result: Result<Void, Overflow>
            if line.isEmpty {
                // Fast path: the whole line is in this chunk; no copy.
                result = try processLine(UnsafeBufferPointer(rebasing: bytes[start..<index]), onEvent)
            } else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                var completed: [UInt8] = []
                swap(&completed, &line)
                result = try completed.withUnsafeBufferPointer { buffer throws(E) in try processLine(buffer, onEvent) }
                completed.removeAll(keepingCapacity: true)
                swap(&completed, &line)
            }
            index += 1
            start = index
            if case .failure = result { return result }
        }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
        if line.count > maxEventBytes { return .failure(Overflow(limit: maxEventBytes)) }
        return .success(())
    }

    public mutating func feed<E: Error>(_ bytes: [UInt8], _ onEvent: (SSEEvent) throws(E) -> Void) throws(E) -> Result<Void, Overflow> {
        try bytes.withUnsafeBufferPointer { buffer throws(E) in try feed(buffer, onEvent) }
    }

    /// Handles one complete line (without its line end).
    private mutating func processLine<E: Error>(
        _ line: UnsafeBufferPointer<UInt8>, _ onEvent: (SSEEvent) throws(E) -> Void
    ) throws(E) -> Result<Void, Overflow> {
        if line.isEmpty {
            if hasData {
                let event = SSEEvent(name: name, data: data)
                data.removeAll(keepingCapacity: true)
                hasData = false
                name = ""
                try onEvent(event)
            } else {
                name = ""
            }
            return .success(())
        }
        if line[0] == UInt8(ascii: ":") { return .success(()) }  // comment
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.count
        var valueStart = colon < line.count ? colon + 1 : line.count
        if valueStart < line.count, line[valueStart] == 0x20 { valueStart += 1 }
        let field = UnsafeBufferPointer(rebasing: line[0..<colon])
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        if field.elementsEqual("data".utf8) {
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            if data.count > maxEventBytes { return .failure(Overflow(limit: maxEventBytes)) }
        } else if field.elementsEqual("event".utf8) {
            name = String(decoding: value, as: UTF8.self)
        } else if field.elementsEqual("id".utf8) || field.elementsEqual("retry".utf8) {
            // No reconnection here: a cut stream is an error, never resumed.
        } else if strayText.count < Self.maxStrayBytes {
            if !strayText.isEmpty { strayText.append(0x0A) }
            strayText.append(contentsOf: line.prefix(Self.maxStrayBytes - strayText.count))
        }
        return .success(())
    }
}
