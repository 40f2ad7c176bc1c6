import TandemBridge
import TandemPluginKit

/// Everything a fake model does, read from its settings. Every key is documented in README.md;
/// the names are part of the contract (tests and configs spell them).
struct FakeScript: Sendable {
    var kind: ModelKind
    var modelVersion: String
    /// nil: echo the last user message.
    var reply: String?
    /// Used instead of `reply` when the request carries a response schema.
    var guidedReply: String?
    /// Emitted when the request declares tools and no tool output has come back yet.
    var toolCalls: [ToolCall]?
    var availability: Availability
    /// nil: every locale.
    var locales: [String]?
    var tokenDelay: Duration
    /// Fail once this many text tokens were delivered.
    var failure: (atToken: Int, status: BackendStatus)?
    /// Refuse every generation with this explanation.
    var refusal: String?
    var hang: Bool
    var embeddingDimensions: Int
    var contextLength: Int
    var concurrent: Bool

    init(settings: inout PluginSettings) throws(BackendFailure) {
        kind = ModelKind(rawValue: try settings.choice("kind", among: ModelKind.allCases.map(\.rawValue)) ?? "local")!
        modelVersion = settings.string("model_version", default: "tandem-fake-1")
        reply = settings.string("reply")
        guidedReply = settings.string("guided_reply")
        toolCalls = try settings.string("tool_calls").map { text throws(BackendFailure) in try FakeToolCallScript.parse(text) }

        let state = settings.string("availability", default: "available")
        let detail = settings.string("availability_detail")
        let progress = try settings.number("availability_progress")
        if let progress, !(0...1).contains(progress) {
            throw BackendFailure(.invalidArgument, "setting availability_progress: expected a number in 0...1, got \(progress)")
        }
        if state == "available" {
            availability = .available
        } else if let reason = AvailabilityReason(name: state) {
            availability = .unavailable(reason, detail: detail ?? "scripted: \(state)", progress: progress)
        } else {
            throw BackendFailure(.invalidArgument, "setting availability: expected available or one of \(AvailabilityReason.all.map(\.name).joined(separator: ", ")), got \(state)")
        }
        locales = settings.string("locales").map { $0.split(separator: ",").map { String($0).trimmed } }

        tokenDelay = .milliseconds(try settings.integer("token_delay_ms", in: 0...60_000) ?? 0)
        let failAt = try settings.integer("fail_at_token", in: 0...Int(Int32.max))
        let errorName = settings.string("error")
        switch (failAt, errorName) {
        case (nil, nil): failure = nil
        case (let index, let name?):
            guard let status = BackendStatus(name: name), status != .ok, status != .bufferTooSmall else {
                throw BackendFailure(.invalidArgument, "setting error: \(name) is not an ABI error code name (e.g. offline, rateLimited, serverError, guardrail, tls, decoding)")
            }
            failure = (index ?? 0, status)
        case (_?, nil):
            throw BackendFailure(.invalidArgument, "setting fail_at_token needs error (an ABI error code name)")
        }
        refusal = settings.string("refusal")
        hang = try settings.boolean("hang") ?? false
        embeddingDimensions = try settings.integer("embedding_dims", in: 0...65_536) ?? 64
        contextLength = try settings.integer("context_length", in: 1...Int(UInt32.max)) ?? 8192
        concurrent = try settings.boolean("concurrent") ?? false
    }
}

extension String {
    var trimmed: String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
