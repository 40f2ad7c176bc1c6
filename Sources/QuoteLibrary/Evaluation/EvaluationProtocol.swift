import Foundation

/// `eval/protocol.json`: the matrix the evaluation runs (readiness states × locales × prompt
/// fixtures × budgets), over the whole pipeline (Sources/QuoteLibrary/README.md, "The pipeline").
public struct EvaluationProtocol: Codable, Equatable, Sendable {
    public struct ReadinessState: Codable, Equatable, Sendable {
        public let name: String
        public let primary: String
        public let secondary: String
        public let judge: String
        public let embedder: String
    }

    public struct Prompt: Codable, Equatable, Sendable {
        public let id: String
        public let theme: String
    }

    public struct BudgetCell: Codable, Equatable, Sendable {
        public let kind: Budget.Kind
        /// Accepted quotes asked for (a batch asks for several within one budget).
        public let count: Int
    }

    public let version: Int
    public let description: String
    public let readinessStates: [ReadinessState]
    public let locales: [String]
    public let prompts: [Prompt]
    public let budgets: [BudgetCell]
    public let repetitions: Int
    public let seed: UInt64

    public init(version: Int, description: String, readinessStates: [ReadinessState], locales: [String], prompts: [Prompt],
                budgets: [BudgetCell], repetitions: Int, seed: UInt64) {
        (self.version, self.description, self.readinessStates, self.locales) = (version, description, readinessStates, locales)
        (self.prompts, self.budgets, self.repetitions, self.seed) = (prompts, budgets, repetitions, seed)
    }

    /// Loads and validates a protocol file; errors name the file and what is wrong.
    public static func load(path: String) throws -> EvaluationProtocol {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw EvaluationError("cannot read protocol \(path): \(error.localizedDescription)")
        }
        let decoded: EvaluationProtocol
        do { decoded = try JSONDecoder().decode(EvaluationProtocol.self, from: data) } catch let error as DecodingError {
            throw EvaluationError("protocol \(path): \(Self.describe(error))")
        }
        try decoded.validate(path: path)
        return decoded
    }

    func validate(path: String) throws {
        func fail(_ message: String) -> EvaluationError { EvaluationError("protocol \(path): \(message)") }
        guard version == 1 else { throw fail("version \(version) is not supported (expected 1)") }
        guard !readinessStates.isEmpty, !locales.isEmpty, !prompts.isEmpty, !budgets.isEmpty else {
            throw fail("readinessStates, locales, prompts and budgets must each have at least one entry")
        }
        if let locale = locales.first(where: { !SupportedLocale.isSupported($0) }) {
            throw fail("locales: \"\(locale)\" is not supported (en, de, es, fr, it, pt)")
        }
        if let budget = budgets.first(where: { !(1...20).contains($0.count) }) {
            throw fail("budgets: count \(budget.count) for \(budget.kind.rawValue) must be 1...20")
        }
        guard (1...100).contains(repetitions) else { throw fail("repetitions must be 1...100, got \(repetitions)") }
    }

    /// Every attempt cell of the matrix, in a stable order.
    public var cells: [EvaluationCell] {
        var cells: [EvaluationCell] = []
        for repetition in 0..<repetitions {
            for state in readinessStates {
                for locale in locales {
                    for prompt in prompts {
                        for budget in budgets {
                            cells.append(EvaluationCell(readiness: state, locale: locale, prompt: prompt, budget: budget,
                                                        seed: seed &+ UInt64(cells.count), repetition: repetition))
                        }
                    }
                }
            }
        }
        return cells
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key \(path(context)).\(key.stringValue)"
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)): expected \(type), found null"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
