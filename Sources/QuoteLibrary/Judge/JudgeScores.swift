import Foundation
import JSONModel

/// The judge's four scores, each 1–10 (Sources/QuoteLibrary/README.md, "The pipeline", step 5;
/// accept when overall ≥ 6).
public struct JudgeScores: Codable, Equatable, Sendable {
    public var quality: Double
    public var originality: Double
    public var warmth: Double
    public var overall: Double

    public init(quality: Double, originality: Double, warmth: Double, overall: Double) {
        (self.quality, self.originality, self.warmth, self.overall) = (quality, originality, warmth, overall)
    }

    public static let range: ClosedRange<Double> = 1...10

    /// Parses and validates the judge's JSON (until guided generation enforces the schema):
    /// exactly these four numeric fields, each inside 1–10. Surrounding prose is not accepted.
    public static func parse(json text: String) throws -> JudgeScores {
        guard let parsed = try? JSONValue(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let object = parsed.objectValue else {
            throw JudgeError(.malformed, "judge output is not a JSON object: \(text.prefix(80))")
        }
        func score(_ key: String) throws -> Double {
            guard let value = object[key]?.numberValue else {
                throw JudgeError(.malformed, "judge output field \"\(key)\" is missing or not a number")
            }
            guard range.contains(value) else {
                throw JudgeError(.malformed, "judge output field \"\(key)\" is \(value), outside 1–10")
            }
            return value
        }
        let extra = Set(object.keys).subtracting(["quality", "originality", "warmth", "overall"])
        guard extra.isEmpty else {
            throw JudgeError(.malformed, "judge output has unexpected fields: \(extra.sorted().joined(separator: ", "))")
        }
        return JudgeScores(quality: try score("quality"), originality: try score("originality"),
                           warmth: try score("warmth"), overall: try score("overall"))
    }
}
