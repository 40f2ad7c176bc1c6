/// Where a configured backend's plugin runs (`"isolation"` in its config entry).
public enum BackendIsolation: String, Hashable, Sendable, CaseIterable {
    /// In a `tandem-plugin-host` child process of its own: a plugin that crashes, hangs or
    /// corrupts memory takes only its child down (the default).
    case process
    /// In the host's own process: the lowest latency, and a crashing plugin kills the host.
    case inProcess = "in-process"
}
