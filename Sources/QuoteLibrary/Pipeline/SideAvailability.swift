/// Whether one side (draft model, secondary model, judge, embedder) can serve now. `reason`
/// uses the C ABI's stable reason names ("available", "modelNotReady", "offline", ...).
public struct SideAvailability: Codable, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var isAvailable: Bool { reason == Self.available.reason }

    public static let available = SideAvailability(reason: "available")
    public static func unavailable(_ reason: String) -> SideAvailability { SideAvailability(reason: reason) }

    public var description: String { reason }
}
