import Foundation

/// The hand-labelled lines of `eval/lines` (its README says how they were made): per language,
/// good lines (`<lang>.good.txt`) and generic or clichéd ones (`<lang>.generic.txt`), one a line.
/// The distinctiveness score and the taste model are fitted on the tuning half and measured on the
/// held-out half; the likelihood judge is shown tuning lines and every judge is calibrated on the
/// held-out half. A line is in the tuning half when the 64-bit FNV-1a hash
/// of its UTF-8 text is even, so the split does not depend on the files' order.
public struct LabelledLines: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case good, generic }

    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    public func all(_ language: String, _ kind: Kind) throws(EvaluationError) -> [String] {
        let path = (folder as NSString).appendingPathComponent("\(language).\(kind.rawValue).txt")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EvaluationError("\(path): no such file or not readable (labelled lines)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { throw EvaluationError("\(path): no lines") }
        return lines
    }

    public func tuning(_ language: String, _ kind: Kind) throws(EvaluationError) -> [String] {
        try all(language, kind).filter(Self.isTuning)
    }

    public func heldOut(_ language: String, _ kind: Kind) throws(EvaluationError) -> [String] {
        try all(language, kind).filter { !Self.isTuning($0) }
    }

    public static func isTuning(_ line: String) -> Bool {
        FNV1a.hash(line) % 2 == 0
    }
}
