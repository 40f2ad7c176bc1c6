import Tandem

/// The names a request's `model` may take and what each serves: `tandem` (the config's routing),
/// a mode name (`prefer-local`, ...) composed from the configured backends, or a backend id
/// alone. Every backend without `concurrentCalls` is wrapped in its `QueuedBackend` once, so all
/// the names that reach it share its queue.
///
/// - Note: Thread-safe (immutable after init).
final class ModelDirectory: Sendable {
    /// What a name resolves to.
    enum Resolution {
        case model(HybridModel)
        /// A name this server knows but cannot serve with this config (a mode without a backend
        /// of the kind it needs); the text says why.
        case unservable(String)
        case unknown
    }

    static let routedName = "tandem"

    let host: TandemHost
    /// The opened backends as the server calls them (queued where needed), by id.
    let models: [String: LanguageModel]
    let queues: [String: QueuedBackend]

    init(host: TandemHost, queueDepth: Int) {
        self.host = host
        var models: [String: LanguageModel] = [:]
        var queues: [String: QueuedBackend] = [:]
        for (id, model) in host.models {
            if model.info.capabilities.contains(.concurrentCalls) {
                models[id] = model
            } else {
                let queued = QueuedBackend(model.backend, depth: queueDepth)
                queues[id] = queued
                models[id] = LanguageModel(queued)
            }
        }
        self.models = models
        self.queues = queues
    }

    func resolve(_ name: String) -> Resolution {
        if name == Self.routedName { return compose(nil) }
        if let mode = RoutingMode(rawValue: name) { return compose(.mode(mode)) }
        if let model = models[name] { return .model(HybridModel(primary: model, fallbackPolicy: host.config.fallbackPolicy)) }
        return .unknown
    }

    /// Every name that resolves to a model, in the order `/v1/models` lists them.
    var servableNames: [String] {
        var names: [String] = []
        if case .model = resolve(Self.routedName) { names.append(Self.routedName) }
        for mode in RoutingMode.allCases {
            if case .model = compose(.mode(mode)) { names.append(mode.rawValue) }
        }
        return names + models.keys.sorted()
    }

    /// All the names a request may use, for the 404 message.
    var knownNames: [String] {
        [Self.routedName] + RoutingMode.allCases.map(\.rawValue) + models.keys.sorted()
    }

    /// The host's hybrid model for `routing`, rebuilt over the queued backends.
    private func compose(_ routing: TandemConfig.Routing?) -> Resolution {
        let composed: HybridModel
        do {
            composed = try host.hybridModel(routing: routing)
        } catch {
            return .unservable(error.description)
        }
        guard let primary = models[composed.primary.id] else { return .unservable("backend \(composed.primary.id) is not open") }
        let secondary = composed.secondary.flatMap { models[$0.id] }
        return .model(HybridModel(primary: primary, secondary: secondary, fallbackPolicy: composed.fallbackPolicy))
    }
}
