import JSONModel
import TandemBridge

/// OpenAI Chat Completions and what compatible servers (vLLM, llama.cpp's server, Ollama) speak:
/// /chat/completions (streamed or not), /embeddings, /models under a base URL ending in /v1
/// (Plugins/CloudHTTPS/README.md, "Pointing it at an OpenAI-compatible server").
public struct OpenAIDialect: CloudDialect {
    public let model: String
    public let baseURL: String
    public let maxTokensField: MaxTokensField
    public let embeddingModel: String
    /// Sent as `dimensions` when set.
    public let embeddingDimensions: Int?

    public init(model: String, baseURL: String, maxTokensField: MaxTokensField, embeddingModel: String, embeddingDimensions: Int?) {
        self.model = model
        self.baseURL = baseURL
        self.maxTokensField = maxTokensField
        self.embeddingModel = embeddingModel
        self.embeddingDimensions = embeddingDimensions
    }

    func headers(_ credential: String?) -> [(name: String, value: String)] {
        credential.map { [("Authorization", "Bearer \($0)")] } ?? []
    }

    public func generateRequest(_ request: BackendRequest, stream: Bool, credential: String?) throws(BackendFailure) -> HTTPRequest {
        let body = try OpenAIRequestEncoder(model: model, maxTokensField: maxTokensField).chatCompletionRequest(request, stream: stream)
        return .post("\(baseURL)/chat/completions", json: body, headers: headers(credential))
    }

    public func makeDecoder(streamed: Bool) -> any GenerationDecoder { OpenAIResponseDecoder(streamed: streamed) }

    public func embedRequest(_ texts: [String], credential: String?) throws(BackendFailure) -> HTTPRequest {
        if let empty = texts.firstIndex(where: \.isEmpty) {
            throw BackendFailure(.invalidArgument, "inputs[\(empty)] is empty; OpenAI embeddings reject empty strings")
        }
        let body: JSONValue = .members([
            ("model", .string(embeddingModel)),
            ("input", .array(texts.map { .string($0) })),
            ("encoding_format", "float"),
            ("dimensions", embeddingDimensions.map { .integer(Int64($0)) }),
        ])
        return .post("\(baseURL)/embeddings", json: body, headers: headers(credential))
    }

    public func decodeEmbeddings(_ body: JSONValue, count: Int) throws(BackendFailure) -> [[Float]] {
        guard let items = body["data"]?.arrayValue else { throw Wire.decodingFailure("embeddings answer has no data array") }
        guard items.count == count else { throw Wire.decodingFailure("embeddings answer has \(items.count) vectors for \(count) inputs") }
        var vectors = [[Float]?](repeating: nil, count: count)
        for (position, item) in items.enumerated() {
            let index = item["index"]?.integerValue.map(Int.init) ?? position
            guard vectors.indices.contains(index), vectors[index] == nil else {
                throw Wire.decodingFailure("embeddings answer has a missing, repeated or out-of-range index \(index)")
            }
            vectors[index] = try Wire.floats(item["embedding"], "data[\(position)].embedding")
        }
        return vectors.map { $0! }
    }

    public func countTokensRequest(_ request: BackendRequest, credential: String?) throws(BackendFailure) -> HTTPRequest? { nil }

    public func decodeTokenCount(_ body: JSONValue) throws(BackendFailure) -> Int {
        throw BackendFailure(.unsupportedOption, "the OpenAI protocol has no token-counting endpoint")
    }

    public func listModelsRequest(credential: String?) -> HTTPRequest {
        HTTPRequest(method: .get, url: "\(baseURL)/models", headers: headers(credential))
    }

    public func decodeModelList(_ body: JSONValue) throws(BackendFailure) -> [String] {
        guard let models = body["data"]?.arrayValue else { throw Wire.decodingFailure("models answer has no data array") }
        return models.compactMap { $0["id"]?.stringValue }
    }
}
