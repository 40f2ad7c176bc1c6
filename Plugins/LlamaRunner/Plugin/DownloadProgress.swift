import Foundation

/// A download of the model file that is under way or was left behind, found next to where the
/// file should be. Two conventions are recognised:
///
/// - `make model` (scripts/fetch-model.sh) works in a hidden folder `.fetch.*` beside the model,
///   holding `target` (the model's file name), `expected-size` once known, and `model.part` while
///   extracting. Progress is `model.part`'s size over the expected size.
/// - Downloaders that write `<file>.part`, `.partial`, `.download`, `.crdownload` or `.tmp`
///   beside the final name. Their expected size is unknown.
struct DownloadProgress: Equatable {
    var detail: String
    var fraction: Double?

    static let partialSuffixes = [".part", ".partial", ".download", ".crdownload", ".tmp"]

    /// The download for `modelPath`, if one is found.
    static func find(for modelPath: String) -> DownloadProgress? {
        let folder = (modelPath as NSString).deletingLastPathComponent
        let name = (modelPath as NSString).lastPathComponent
        if let fetch = fetchFolder(in: folder, for: name) { return fetch }
        for suffix in partialSuffixes {
            if let size = FileStamp.size(of: modelPath + suffix) {
                return DownloadProgress(detail: "partial download: \(name)\(suffix) has \(size) bytes", fraction: nil)
            }
        }
        return nil
    }

    private static func fetchFolder(in folder: String, for name: String) -> DownloadProgress? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for entry in entries.sorted() where entry.hasPrefix(".fetch.") {
            let work = (folder as NSString).appendingPathComponent(entry)
            guard let target = try? String(contentsOfFile: work + "/target", encoding: .utf8),
                  target.trimmingCharacters(in: .whitespacesAndNewlines) == name else { continue }
            let expected = (try? String(contentsOfFile: work + "/expected-size", encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard let written = FileStamp.size(of: work + "/model.part") else {
                return DownloadProgress(detail: "downloading: make model is fetching \(name)", fraction: nil)
            }
            guard let expected, expected > 0 else {
                return DownloadProgress(detail: "downloading: \(written) bytes of \(name) written", fraction: nil)
            }
            let fraction = min(1, Double(written) / Double(expected))
            return DownloadProgress(
                detail: "downloading: \(written) of \(expected) bytes of \(name) (\(Int(fraction * 100))%)", fraction: fraction)
        }
        return nil
    }
}
