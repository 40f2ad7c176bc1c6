/// The verdict `tandem quote check TEXT --json` prints.
public struct CheckReport: Codable, Equatable, Sendable {
    public let accepted: Bool
    public let detectedLanguage: String?
    public let gates: [GateResult]

    private enum CodingKeys: String, CodingKey { case accepted, detectedLanguage, gates }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(detectedLanguage, forKey: .detectedLanguage)
        try container.encode(gates, forKey: .gates)
    }
}
