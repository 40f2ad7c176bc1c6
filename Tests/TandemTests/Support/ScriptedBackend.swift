import Foundation
import Synchronization
@testable import Tandem

/// An in-process `Backend` that reads the same settings as the `tandem.fake` plugin (`kind`,
/// `model_version`, `reply`, `availability`, `token_delay_ms`, `fail_at_token`, `error`,
/// `hang`), so one routing matrix can run over it and over the real plugin. It also records
/// every request it receives.
final class ScriptedBackend: Backend {
    let backendID: String
    let info: ModelInfo
    private let settings: [String: String]
    private let requests = Mutex<[BackendRequest]>([])

    init(id: String, settings: [String: String], capabilities: ModelCapabilities = [.streaming]) {
        self.backendID = id
        self.settings = settings
        self.info = ModelInfo(
            id: "fake-\(settings["kind"] ?? "local")", displayName: "Scripted", kind: ModelKind(rawValue: settings["kind"] ?? "local")!,
            capabilities: capabilities, contextLength: 0, embeddingDimensions: 0)
    }

    /// Every request `generate` received, oldest first.
    var receivedRequests: [BackendRequest] { requests.withLock { $0 } }

    func availability(locale: String?) -> Availability {
        guard let name = settings["availability"], name != "available" else { return .available }
        return .unavailable(AvailabilityReason(name: name)!, detail: "scripted")
    }

    func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        requests.withLock { $0.append(request) }
        if settings["hang"] == "true" {
            let woken = DispatchSemaphore(value: 0)
            let key = cancellation.addWaker { woken.signal() }
            woken.wait()
            if let key { cancellation.removeWaker(key) }
            throw BackendFailure(.cancelled, "cancelled while hanging")
        }
        let reply = settings["reply"] ?? request.messages.last(where: { $0.role == .user })?.content ?? ""
        let tokens = reply.split(separator: " ", omittingEmptySubsequences: false).enumerated().map { index, word in
            index == 0 ? String(word) : " " + word
        }
        let failAt = settings["fail_at_token"].flatMap(Int.init)
        let delay = settings["token_delay_ms"].flatMap(Int.init) ?? 0
        for (index, token) in tokens.enumerated() {
            if index == failAt {
                throw BackendFailure(BackendStatus(name: settings["error"] ?? "unknown")!, "scripted failure at token \(index)")
            }
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled") }
            if delay > 0 { usleep(useconds_t(delay * 1000)) }
            if !onEvent(.text(token)) {
                return BackendResult(finish: .callback, modelVersion: modelVersion, usage: Usage(outputTokens: index + 1))
            }
        }
        return BackendResult(finish: .stop, modelVersion: modelVersion, usage: Usage(promptTokens: request.messages.count, outputTokens: tokens.count))
    }

    private var modelVersion: String { settings["model_version"] ?? "scripted-1" }

    func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        throw BackendFailure(.unsupportedOption, "no embeddings")
    }

    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        request.messages.reduce(0) { $0 + $1.content.split(separator: " ").count }
    }
}
