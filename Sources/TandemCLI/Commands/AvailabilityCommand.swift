import JSONModel
import Tandem

/// `tandem availability`: each configured backend's cheap availability check.
enum AvailabilityCommand: Command {
    static let name = "availability"
    static let summary = "show whether each configured backend can serve now (optionally for a locale)"
    static let arguments = "[--locale BCP47] [--json]"
    static let options: [OptionSpec] = [
        .option("locale", "BCP47", "ask for this locale (\"en\", \"de-CH\")"),
        .flag("json", "print one JSON object"),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let host = try context.host()
        let locale = arguments.string("locale")
        var entries: JSONObject = [:]
        for id in host.config.backends.keys.sorted() {
            if let model = host.models[id] {
                let availability = model.availability(for: locale)
                entries[id] = JSONReport.availability(availability)
                if !arguments.flag("json") { Terminal.out("\(id): \(JSONReport.text(availability))") }
            } else if let failure = host.openFailures[id] {
                entries[id] = .object(["available": .bool(false), "reason": .string("notOpened"), "detail": .string(failure.description)])
                if !arguments.flag("json") { Terminal.out("\(id): not opened: \(failure.message)") }
            }
        }
        if arguments.flag("json") {
            Terminal.out(JSONValue.object(["locale": locale.map(JSONValue.string) ?? .null, "backends": .object(entries)]).jsonText(sortingKeys: true))
        }
        return .success
    }
}
