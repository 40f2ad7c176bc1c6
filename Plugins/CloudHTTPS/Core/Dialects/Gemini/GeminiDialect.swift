import JSONModel
import TandemBridge

/// The Gemini API (v1beta REST): generateContent, streamGenerateContent?alt=sse, embeddings,
/// countTokens, models (Plugins/CloudHTTPS/README.md, "Pointing it at a real Gemini key").
public struct GeminiDialect: CloudDialect {
    public let model: String
    public let baseURL: String
    public let embeddingModel: String
    /// Sent as outputDimensionality when set.
    public let embeddingDimensions: Int?

    public init(model: String, baseURL: String, embeddingModel: String, embeddingDimensions: Int?) {
        self.model = model
        self.baseURL = baseURL
        self.embeddingModel = embeddingModel
        self.embeddingDimensions = embeddingDimensions
    }

    func headers(_ credential: String?) -> [(name: String, value: String)] {
        credential.map { [("x-goog-api-key", $0)] } ?? []
    }

    public func generateRequest(_ request: BackendRequest, stream: Bool, credential: String?) throws(BackendFailure) -> HTTPRequest {
        let body = try GeminiRequestEncoder(model: model).generateContentRequest(request)
        let url = stream
            ? "\(baseURL)/models/\(model):streamGenerateContent?alt=sse"
            : "\(baseURL)/models/\(model):generateContent"
        return .post(url, json: body, headers: headers(credential))
    }

    public func makeDecoder(streamed: Bool) -> any GenerationDecoder { GeminiResponseDecoder(streamed: streamed) }

    /// One text goes to :embedContent, several to :batchEmbedContents (one round trip).
    public func embedRequest(_ texts: [String], credential: String?) throws(BackendFailure) -> HTTPRequest {
        let requests: [JSONValue] = texts.map { text in
            .members([
                ("model", .string("models/\(embeddingModel)")),
                ("content", ["parts": [["text": .string(text)]]]),
                ("outputDimensionality", embeddingDimensions.map { .integer(Int64($0)) }),
            ])
        }
        if requests.count == 1 {
            return .post("\(baseURL)/models/\(embeddingModel):embedContent", json: requests[0], headers: headers(credential))
        }
        return .post("\(baseURL)/models/\(embeddingModel):batchEmbedContents", json: ["requests": .array(requests)], headers: headers(credential))
    }

    public func decodeEmbeddings(_ body: JSONValue, count: Int) throws(BackendFailure) -> [[Float]] {
        if count == 1, let single = body["embedding"] {
            return [try Wire.floats(single["values"], "embedding.values")]
        }
        guard let items = body["embeddings"]?.arrayValue else { throw Wire.decodingFailure("batchEmbedContents answer has no embeddings array") }
        guard items.count == count else { throw Wire.decodingFailure("batchEmbedContents returned \(items.count) embeddings for \(count) inputs") }
        var vectors: [[Float]] = []
        for (index, item) in items.enumerated() {
            vectors.append(try Wire.floats(item["values"], "embeddings[\(index)].values"))
        }
        return vectors
    }

    public func countTokensRequest(_ request: BackendRequest, credential: String?) throws(BackendFailure) -> HTTPRequest? {
        var inner = try GeminiRequestEncoder(model: model).generateContentRequest(request)
        if case .object(let members) = inner {
            var withModel: JSONObject = ["model": .string("models/\(model)")]
            for (key, value) in members { withModel[key] = value }
            inner = .object(withModel)
        }
        return .post("\(baseURL)/models/\(model):countTokens", json: ["generateContentRequest": inner], headers: headers(credential))
    }

    public func decodeTokenCount(_ body: JSONValue) throws(BackendFailure) -> Int {
        guard let total = body["totalTokens"]?.integerValue.map(Int.init), total >= 0 else { throw Wire.decodingFailure("countTokens answer has no totalTokens") }
        return total
    }

    public func listModelsRequest(credential: String?) -> HTTPRequest {
        HTTPRequest(method: .get, url: "\(baseURL)/models?pageSize=1000", headers: headers(credential))
    }

    public func decodeModelList(_ body: JSONValue) throws(BackendFailure) -> [String] {
        guard let models = body["models"]?.arrayValue else { throw Wire.decodingFailure("models answer has no models array") }
        return models.compactMap { $0["name"]?.stringValue }.map { $0.hasPrefix("models/") ? String($0.dropFirst(7)) : $0 }
    }
}
