/// A command's arguments, checked against its `OptionSpec`s: `--name value`, `--name=value`,
/// flags, positionals, and `--` to end options. Typed getters turn values into numbers and
/// name the option and the value when that fails.
struct ParsedArguments {
    let command: String
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(command: String, arguments: [String], options: [OptionSpec], maxPositionals: Int) throws(UsageError) {
        self.command = command
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let spec = byName[name] else {
                throw UsageError(command, "unknown option --\(name) for '\(command)'")
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw UsageError(command, "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if values[name] != nil { throw UsageError(command, "--\(name) given twice") }
            if let inlineValue {
                values[name] = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError(command, "--\(name) needs a value (\(spec.synopsis))") }
                values[name] = arguments[index]
                index += 1
            }
        }
        if positionals.count > maxPositionals {
            let extra = positionals[maxPositionals]
            throw UsageError(command, maxPositionals == 0
                ? "'\(command)' takes no arguments, got \"\(extra)\""
                : "unexpected argument \"\(extra)\" (quote a prompt with spaces)")
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func string(_ name: String) -> String? { values[name] }

    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError(command, "--\(name): expected a number, got \"\(text)\"")
        }
        return value
    }

    func integer(_ name: String) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else { throw UsageError(command, "--\(name): expected an integer, got \"\(text)\"") }
        return value
    }

    func unsigned(_ name: String) throws(UsageError) -> UInt64? {
        guard let text = values[name] else { return nil }
        guard let value = UInt64(text) else {
            throw UsageError(command, "--\(name): expected a non-negative integer, got \"\(text)\"")
        }
        return value
    }
}
