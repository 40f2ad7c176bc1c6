import Synchronization
import Tandem

/// Passes every call to a real backend (a plugin's, through the loader) and keeps the requests
/// it was given, so a test can read what a backend was asked and what crossed the ABI.
public final class RecordingBackend: Backend {
    public let inner: any Backend
    private let requests = Mutex<[BackendRequest]>([])

    public init(_ inner: any Backend) { self.inner = inner }

    /// Every request `generate` received, oldest first.
    public var received: [BackendRequest] { requests.withLock { $0 } }

    public var backendID: String { inner.backendID }
    public var info: ModelInfo { inner.info }
    public func availability(locale: String?) -> Availability { inner.availability(locale: locale) }

    public func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        requests.withLock { $0.append(request) }
        return try inner.generate(request, cancellation: cancellation, onEvent: onEvent)
    }

    public func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        try inner.embed(texts, cancellation: cancellation)
    }

    public func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int { try inner.countTokens(request) }
}
