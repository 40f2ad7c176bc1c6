import Tandem

extension OptionSpec {
    /// `--mode MODE`, read by `ParsedArguments.routingMode()`.
    static let mode = OptionSpec.option("mode", "MODE", "prefer-local | prefer-cloud | local-only | cloud-only (overrides the config)")
}

extension ParsedArguments {
    /// `--mode MODE` (respond, chat, quote, ask, eval): a routing override, or nil for the config's.
    func routingMode() throws(UsageError) -> TandemConfig.Routing? {
        guard let value = string("mode") else { return nil }
        guard let mode = RoutingMode(rawValue: value) else {
            let modes = RoutingMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(command, "--mode: unknown mode \"\(value)\" (expected one of: \(modes))")
        }
        return .mode(mode)
    }
}
