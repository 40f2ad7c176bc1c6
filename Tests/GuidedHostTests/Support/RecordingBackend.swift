import Synchronization
import Tandem

/// Passes every call to a real plugin backend and keeps the requests it was given, so a test
/// can read what crossed the ABI.
final class RecordingBackend: Backend {
    let inner: any Backend
    private let requests = Mutex<[BackendRequest]>([])

    init(_ inner: any Backend) { self.inner = inner }

    var received: [BackendRequest] { requests.withLock { $0 } }

    var backendID: String { inner.backendID }
    var info: ModelInfo { inner.info }
    func availability(locale: String?) -> Availability { inner.availability(locale: locale) }

    func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        requests.withLock { $0.append(request) }
        return try inner.generate(request, cancellation: cancellation, onEvent: onEvent)
    }

    func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        try inner.embed(texts, cancellation: cancellation)
    }

    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int { try inner.countTokens(request) }
}
