import Foundation
import PluginFixtures
import Tandem

/// The plugins `make plugins` installed in plugins.d/, loaded once through the real loader.
enum ShippedPlugins {
    static let catalog = PluginLoader(directory: PackagePaths.plugins).load()

    /// A fake backend opened with `settings` (the keys of Plugins/Fake/README.md).
    static func fake(_ settings: [String: String] = [:]) throws -> PluginBackend {
        guard let plugin = catalog.plugin(id: "tandem.fake") else { throw CommandFailure(message: "tandem.fake is not in plugins.d; run make plugins") }
        return try plugin.openModel(backendID: "fake", settings: settings)
    }

    static func echo(_ settings: [String: String] = [:]) throws -> PluginBackend {
        guard let plugin = catalog.plugin(id: "tandem.echo-c") else { throw CommandFailure(message: "tandem.echo-c is not in plugins.d; run make plugins") }
        return try plugin.openModel(backendID: "echo", settings: settings)
    }
}

/// Runs a generation and collects its events.
struct Generation {
    var events: [BackendEvent] = []
    var result: Result<BackendResult, BackendFailure>

    /// `observe` sees each event as it arrives, on the generating thread.
    init(
        _ backend: PluginBackend, _ request: BackendRequest, cancellation: CancellationToken = CancellationToken(),
        stopAfter: Int? = nil, observe: (BackendEvent) -> Void = { _ in }
    ) {
        var events: [BackendEvent] = []
        result = Result { () throws(BackendFailure) in
            try backend.generate(request, cancellation: cancellation) { event in
                observe(event)
                events.append(event)
                return stopAfter.map { events.count < $0 } ?? true
            }
        }
        self.events = events
    }

    var texts: [String] { events.compactMap { if case .text(let text) = $0 { text } else { nil } } }
    var text: String { texts.joined() }
    var failure: BackendFailure? { if case .failure(let failure) = result { failure } else { nil } }
    var finished: BackendResult? { try? result.get() }
}

extension BackendRequest {
    static func user(_ text: String, options: BackendOptions = BackendOptions()) -> BackendRequest {
        BackendRequest(messages: [.user(text)], options: options)
    }
}
