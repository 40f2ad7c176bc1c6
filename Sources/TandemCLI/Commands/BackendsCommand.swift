import JSONModel
import Tandem

/// `tandem backends`: what the plugins folder holds and what the config opened from it.
enum BackendsCommand: Command {
    static let name = "backends"
    static let summary = "list plugins (versions, rejected files and why) and configured backends (capabilities, availability)"
    static let arguments = "[--json]"
    static let options: [OptionSpec] = [.flag("json", "print one JSON object")]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let host = try context.host()
        let catalog = host.plugins
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
                let entry = host.config.backends[id]!
                var object: JSONObject = [
                    "id": .string(id), "plugin": .string(entry.plugin), "isolation": .string(entry.isolation.rawValue),
                ]
                if let model = host.models[id] {
                    let info = model.info
                    object["model"] = .string(info.id)
                    object["kind"] = .string(info.kind.rawValue)
                    object["capabilities"] = .array(info.capabilities.names.map(JSONValue.string))
                    object["contextLength"] = .number(Double(info.contextLength))
                    object["availability"] = JSONReport.availability(model.availability)
                    if let health = (model.backend as? ProcessBackend)?.health {
                        object["running"] = .bool(health.running)
                        object["crashes"] = .number(Double(health.crashes))
                        object["lastCrash"] = health.lastCrash.map(JSONValue.string) ?? .null
                    }
                } else if let failure = host.openFailures[id] {
                    object["error"] = .string(failure.description)
                }
                return .object(object)
            }
            Terminal.out(JSONValue.object([
                "pluginsDir": .string(catalog.directory), "loadMilliseconds": .number(milliseconds),
                "plugins": .array(plugins), "rejected": .array(rejected), "backends": .array(backends),
                "routing": routingJSON(routing),
            ]).jsonText(sortingKeys: true))
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
            let entry = host.config.backends[id]!
            let plugin = entry.plugin
            if let model = host.models[id] {
                let info = model.info
                let capabilities = info.capabilities.names.joined(separator: ", ")
                Terminal.out("  \(id): \(plugin) model \(info.id) [\(info.kind)] capabilities: \(capabilities.isEmpty ? "none" : capabilities); context \(info.contextLength); \(JSONReport.text(model.availability)); \(isolationText(model))")
            } else if let failure = host.openFailures[id] {
                Terminal.out("  \(id): \(plugin) not opened (\(entry.isolation.rawValue)): \(failure.message)")
            }
        }
        Terminal.out("routing: \(routingText)")
        return .success
    }

    /// "in-process", or "process, 0 crashes", or "process, 2 crashes, last: it was killed by ...".
    private static func isolationText(_ model: LanguageModel) -> String {
        guard let health = (model.backend as? ProcessBackend)?.health else { return "isolation in-process" }
        var text = "isolation process (\(health.running ? "running" : "not running"), \(health.crashes) crash\(health.crashes == 1 ? "" : "es")"
        if let last = health.lastCrash { text += ", last: it \(last)" }
        return text + ")"
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
