import Foundation

/// `POST /v1/embeddings`: a string or an array of strings in, one vector each out, as JSON
/// numbers or (`encoding_format: "base64"`, what the official clients ask for) little-endian
/// float32 bytes in base64.
struct EmbeddingsRequest {
    var model: String
    var inputs: [String]
    var base64: Bool

    init(body: JSON, maxInputs: Int) throws(APIError) {
        let request = try RequestObject(body, path: "")
        try request.rejectUnknown(["model", "input", "encoding_format", "dimensions", "user"])
        model = try request.requiredString("model")
        switch request.value("input") {
        case nil:
            throw APIError.invalid("input", "input is required", code: "missing_required_parameter")
        case .string(let text)?:
            inputs = [text]
        case .array(let items)?:
            inputs = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    throw APIError.invalid("input[\(index)]", "input[\(index)]: expected a string, found \(item.typeName) (token arrays are not supported)", code: "invalid_type")
                }
                inputs.append(text)
            }
        case let other?:
            throw request.mismatch("input", "a string or an array of strings", other)
        }
        guard !inputs.isEmpty else { throw APIError.invalid("input", "input is empty") }
        guard inputs.count <= maxInputs else { throw APIError.invalid("input", "input has \(inputs.count) texts; at most \(maxInputs)") }
        if let index = inputs.firstIndex(where: { $0.isEmpty }) {
            throw APIError.invalid(inputs.count == 1 ? "input" : "input[\(index)]", "input\(inputs.count == 1 ? "" : "[\(index)]") is an empty string")
        }
        switch try request.string("encoding_format") ?? "float" {
        case "float": base64 = false
        case "base64": base64 = true
        case let other: throw APIError.invalid("encoding_format", "encoding_format: expected float or base64, got \"\(other)\"")
        }
        if request.value("dimensions") != nil {
            throw APIError.invalid("dimensions", "dimensions: not supported (each model has its own width)", code: "unsupported_value")
        }
    }

    func response(_ vectors: [[Float]], model: String, promptTokens: Int) -> JSON {
        [
            "object": "list", "model": .string(model),
            "data": .array(vectors.enumerated().map { index, vector in
                ["object": "embedding", "index": .integer(Int64(index)), "embedding": base64 ? .string(Self.base64(vector)) : .array(vector.map { .number(Double($0)) })]
            }),
            "usage": ["prompt_tokens": .integer(Int64(promptTokens)), "total_tokens": .integer(Int64(promptTokens))],
        ]
    }

    static func base64(_ vector: [Float]) -> String {
        var bytes = Data(capacity: vector.count * 4)
        for value in vector { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes.base64EncodedString()
    }
}

/// `GET /v1/models`.
enum ModelList {
    static func body(_ names: [String]) -> JSON {
        ["object": "list", "data": .array(names.map { ["id": .string($0), "object": "model", "created": 0, "owned_by": "tandem"] })]
    }
}
