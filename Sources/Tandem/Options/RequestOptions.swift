/// Per-request options for a hybrid model: each side gets its own, and the side that serves
/// receives only its own (`.local`, `.cloud`, or both with `.hybrid(cloud:local:)`). A side
/// without options uses its backend's defaults.
public struct RequestOptions: Hashable, Sendable {
    public var local: GenerationOptions?
    public var cloud: GenerationConfig?

    public init(local: GenerationOptions? = nil, cloud: GenerationConfig? = nil) {
        self.local = local
        self.cloud = cloud
    }

    /// Backend defaults on both sides.
    public static let `default` = RequestOptions()

    public static func local(_ options: GenerationOptions) -> RequestOptions { RequestOptions(local: options) }
    public static func cloud(_ config: GenerationConfig) -> RequestOptions { RequestOptions(cloud: config) }
    public static func hybrid(cloud: GenerationConfig, local: GenerationOptions) -> RequestOptions {
        RequestOptions(local: local, cloud: cloud)
    }

    /// The options a model of `kind` receives. Test doubles stand for the local side.
    public func backendOptions(for kind: ModelKind) -> BackendOptions {
        switch kind {
        case .cloud: cloud?.backendOptions ?? BackendOptions()
        case .local, .test: local?.backendOptions ?? BackendOptions()
        }
    }

    /// Checks every side that has options, so a bad value fails before any backend is called,
    /// whichever side would have served.
    public func validate() throws(TandemError) {
        if let problem = local?.backendOptions.validationProblem() {
            throw TandemError(.invalidOptions, "local options: \(problem)")
        }
        if let problem = cloud?.backendOptions.validationProblem() {
            throw TandemError(.invalidOptions, "cloud options: \(problem)")
        }
    }
}
