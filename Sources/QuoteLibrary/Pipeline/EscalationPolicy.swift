/// Quality-gated escalation: when a draft written by the primary fails one of `gates`, the
/// command's remaining attempts are asked of the secondary (when it is available). The
/// default escalates on every gate. Timeouts and cancellation are not gates: they end the
/// command's one budget, so no attempt is left to escalate.
public struct EscalationPolicy: Equatable, Sendable {
    public let gates: Set<GateName>

    public init(gates: Set<GateName>) { self.gates = gates }

    public static let everyGate = EscalationPolicy(gates: Set(GateName.allCases))
    public static let never = EscalationPolicy(gates: [])

    /// Parses the config's `quote.escalate_on` names; an unknown name is returned as the error.
    public static func parse(_ names: [String]) -> Result<EscalationPolicy, UnknownGate> {
        var gates: Set<GateName> = []
        for name in names {
            guard let gate = GateName(rawValue: name) else { return .failure(UnknownGate(name: name)) }
            gates.insert(gate)
        }
        return .success(EscalationPolicy(gates: gates))
    }

    public struct UnknownGate: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown gate \"\(name)\" (expected any of: \(GateName.allCases.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}

/// The escalation that sent an attempt to the secondary: the gate that failed the primary's
/// draft and the primary's model version (the attempt's own `modelVersion` is the secondary's).
public struct Escalation: Codable, Equatable, Sendable {
    public let gate: GateName
    public let primaryModelVersion: String?

    public init(gate: GateName, primaryModelVersion: String?) {
        (self.gate, self.primaryModelVersion) = (gate, primaryModelVersion)
    }
}
