import Foundation
import JSONModel

/// A string `pattern` guide compiled with Foundation's regular expressions (ICU syntax, which
/// covers the ECMA-262 subset JSON Schema patterns use in practice). Matching is unanchored, as
/// JSON Schema specifies.
struct StringPattern {
    private let expression: NSRegularExpression

    init(_ pattern: String, at path: JSONPath) throws {
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw GuidedJSONError(.invalidSchema, "pattern \(JSONValue.string(pattern).jsonText) is not a valid regular expression", path: path)
        }
    }

    func matches(_ string: String) -> Bool {
        expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
