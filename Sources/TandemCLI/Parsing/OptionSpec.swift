/// One `--name` a command accepts: a flag, or an option with a value.
struct OptionSpec {
    var name: String
    /// Placeholder for the value (`N`, `PATH`); nil for a flag.
    var valueName: String?
    var help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, valueName: nil, help: help) }
    static func option(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// `--top-k N`.
    var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
