import Tandem

/// `tandem backends`: what the plugins folder holds and what the config opened from it.
enum BackendsCommand: Command {
    static let name = "backends"
    static let summary = "list plugins (versions, rejected files and why) and configured backends (capabilities, availability)"
    static let arguments = "[--json]"
    static let options: [OptionSpec] = [.flag("json", "print one JSON object")]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let host = try context.host()
        let catalog = host.catalog
        let milliseconds = Double(catalog.duration.components.attoseconds) / 1e15 + Double(catalog.duration.components.seconds) * 1e3
        let backendIDs = host.config.backends.keys.sorted()
        // What `respond` would route over, or why it cannot.
        let routing: Result<HybridModel, ConfigError> = Result { () throws(ConfigError) in try host.hybridModel() }
        let routingText: String
        switch routing {
        case .success(let model): routingText = "primary \(model.primary.id)" + (model.secondary.map { ", secondary \($0.id)" } ?? ", no secondary")
        case .failure(let error): routingText = "not possible: \(error)"
        }
        if arguments.flag("json") {
            let plugins: [JSONValue] = catalog.plugins.map { plugin in
                .object([
                    "id": .string(plugin.id), "name": .string(plugin.name), "version": .string(plugin.version),
                    "abi": .string(plugin.abiVersionText), "path": .string(plugin.path),
                ])
            }
            let rejected: [JSONValue] = catalog.rejections.map { rejection in
                .object(["path": .string(rejection.path), "code": .string(rejection.code.name), "message": .string(rejection.message)])
            }
            let backends: [JSONValue] = backendIDs.map { id in
                var object: [String: JSONValue] = ["id": .string(id), "plugin": .string(host.config.backends[id]!.plugin)]
                if let model = host.models[id] {
                    let info = model.info
                    object["model"] = .string(info.id)
                    object["kind"] = .string(info.kind.rawValue)
                    object["capabilities"] = .array(info.capabilities.names.map(JSONValue.string))
                    object["contextLength"] = .number(Double(info.contextLength))
                    object["availability"] = JSONReport.availability(model.availability)
                } else if let failure = host.openFailures[id] {
                    object["error"] = .string(failure.description)
                }
                return .object(object)
            }
            Terminal.out(JSONValue.object([
                "pluginsDir": .string(catalog.directory), "loadMilliseconds": .number(milliseconds),
                "plugins": .array(plugins), "rejected": .array(rejected), "backends": .array(backends),
                "routing": routingJSON(routing),
            ]).jsonText)
            return .success
        }
        Terminal.out("plugins in \(catalog.directory): \(catalog.plugins.count) loaded, \(catalog.rejections.count) rejected (\(String(format: "%.1f", milliseconds)) ms)")
        for plugin in catalog.plugins {
            Terminal.out("  \(plugin.id) \(plugin.version) (\(plugin.name), ABI \(plugin.abiVersionText)) \(plugin.path)")
        }
        for rejection in catalog.rejections {
            Terminal.out("  rejected \(rejection.path): \(rejection.code): \(rejection.message)")
        }
        Terminal.out("backends in \(host.config.file):")
        for id in backendIDs {
            let plugin = host.config.backends[id]!.plugin
            if let model = host.models[id] {
                let info = model.info
                let capabilities = info.capabilities.names.joined(separator: ", ")
                Terminal.out("  \(id): \(plugin) model \(info.id) [\(info.kind)] capabilities: \(capabilities.isEmpty ? "none" : capabilities); context \(info.contextLength); \(JSONReport.text(model.availability))")
            } else if let failure = host.openFailures[id] {
                Terminal.out("  \(id): \(plugin) not opened: \(failure.message)")
            }
        }
        Terminal.out("routing: \(routingText)")
        return .success
    }

    private static func routingJSON(_ routing: Result<HybridModel, ConfigError>) -> JSONValue {
        switch routing {
        case .success(let model):
            .object(["primary": .string(model.primary.id), "secondary": model.secondary.map { .string($0.id) } ?? .null])
        case .failure(let error):
            .object(["error": .string(error.description)])
        }
    }
}
