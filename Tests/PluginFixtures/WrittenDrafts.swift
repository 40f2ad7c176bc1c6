import Foundation

/// The drafts of eval/drafts (its README says how they were written): per half (`tuning`,
/// `held-out`), language and kind (good, generic, odd, fragment, leftover, attribution), one
/// line each. A kind a half lacks reads as no lines.
public enum WrittenDrafts {
    public static let languages = ["en", "de", "es", "fr", "it", "pt"]

    public static func lines(_ half: String, _ language: String, _ kind: String) throws -> [String] {
        let path = PackagePaths.root + "/eval/drafts/\(half)/\(language).\(kind).txt"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
