/// The stable `modelVersion` id of a model file.
///
/// Rule: the file name without `.gguf`, with a trailing quantisation label (`.Q4_1`, `-q8_0`,
/// ...) removed, lower-cased, every run of characters other than a-z, 0-9 and `_` turned into
/// one `-`; then `-` and the file's quantisation from `general.file_type` (e.g. `q4_1`), or
/// `unknown-type` when the file does not say. `SmolLM2-135M-Instruct.Q4_1.gguf` with file type 3
/// gives `smollm2-135m-instruct-q4_1`. The file name is used rather than `general.name`
/// because converters often leave `general.name` without the variant (this file's says
/// "Smollm2 135M 8k Lc100K Mix1 Ep2", with no "Instruct").
public enum ModelVersion {
    static let fileTypes: [Int64: String] = [
        0: "f32", 1: "f16", 2: "q4_0", 3: "q4_1", 7: "q8_0", 8: "q5_0", 9: "q5_1", 10: "q2_k",
        11: "q3_k_s", 12: "q3_k_m", 13: "q3_k_l", 14: "q4_k_s", 15: "q4_k_m", 16: "q5_k_s",
        17: "q5_k_m", 18: "q6_k", 21: "q2_k_s", 25: "iq4_nl", 32: "bf16",
    ]

    public static func make(path: String, fileType: Int64?) -> String {
        var stem = Substring(path.split(separator: "/").last ?? "")
        if stem.lowercased().hasSuffix(".gguf") { stem = stem.dropLast(5) }
        let type = fileType.flatMap { fileTypes[$0] } ?? "unknown-type"
        var slug = ""
        for c in stem.lowercased().unicodeScalars {
            let keep = ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_"
            if keep { slug.unicodeScalars.append(c) } else if !slug.hasSuffix("-") && !slug.isEmpty { slug += "-" }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        // Drop a quantisation label already in the name: the metadata's is authoritative.
        for label in Set(fileTypes.values) where slug.hasSuffix("-" + label) {
            slug.removeLast(label.count + 1)
            break
        }
        return (slug.isEmpty ? "model" : slug) + "-" + type
    }
}
