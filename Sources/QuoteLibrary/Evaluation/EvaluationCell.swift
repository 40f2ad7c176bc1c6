import Foundation

/// One cell of the matrix.
public struct EvaluationCell: Codable, Equatable, Sendable {
    public let readiness: EvaluationProtocol.ReadinessState
    public let locale: String
    public let prompt: EvaluationProtocol.Prompt
    public let budget: EvaluationProtocol.BudgetCell
    public let seed: UInt64
    public let repetition: Int
}
