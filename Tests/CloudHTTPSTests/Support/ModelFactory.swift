import CloudHTTPSCore
import MockCloudServer
import TandemBridge
import TandemPluginKit

/// Opens models the way the plugin does (settings text pairs through PluginSettings), pointed
/// at the mock.
enum ModelFactory {
    static func settings(_ dialect: DialectKind, token: String, model: String? = nil, _ extra: [String: String] = [:]) -> [String: String] {
        let mock = MockServer.shared
        var values = [
            "dialect": dialect.rawValue,
            "model": model ?? (dialect == .gemini ? "gemini-2.5-flash" : "gpt-4o-mini"),
            "base_url": mock.baseURL(dialect, token: token),
            "ca_file": mock.caFile,
            "api_key_env": MockServer.keyVariable,
            "retry_base_delay_ms": "20",
        ]
        for (key, value) in extra { values[key] = value }
        return values.filter { !$0.value.isEmpty }
    }

    static func open(
        _ values: [String: String], routes: NetworkRoutes = .system, cooldown: RateLimitCooldown = RateLimitCooldown()
    ) throws(BackendFailure) -> CloudModel {
        var parsed = PluginSettings(values)
        let settings = try CloudSettings(&parsed)
        try parsed.finish()
        return CloudModel(settings: settings, routes: routes, jitter: { 0.5 }, cooldown: cooldown)
    }

    static func mock(
        _ dialect: DialectKind, _ scenario: String, model: String? = nil, _ extra: [String: String] = [:],
        cooldown: RateLimitCooldown = RateLimitCooldown()
    ) throws -> (CloudModel, String) {
        let token = MockServer.token(scenario)
        return (try open(settings(dialect, token: token, model: model, extra), cooldown: cooldown), token)
    }
}
