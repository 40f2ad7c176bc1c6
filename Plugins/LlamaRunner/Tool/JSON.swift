import Foundation

/// Minimal JSON rendering for the tool's output.
enum JSON {
    static func string(_ s: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [s], options: [.fragmentsAllowed])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }

    static func number(_ v: Float) -> String { v.isFinite ? "\(v)" : "null" }
    static func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
}
