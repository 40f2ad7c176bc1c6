/// One server-sent event: its `event:` name (empty when absent) and its `data:` lines joined by LF.
public struct SSEEvent: Hashable, Sendable {
    public var name: String
    public var data: [UInt8]
    public init(name: String = "", data: [UInt8]) {
        self.name = name
        self.data = data
    }
    public var text: String { String(decoding: data, as: UTF8.self) }
}
