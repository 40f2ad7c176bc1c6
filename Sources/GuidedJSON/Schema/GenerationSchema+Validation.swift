import JSONModel

extension GenerationSchema {
    /// Every way `value` fails this schema, each with the JSON path of the offending value; empty
    /// when it conforms. The schema itself must pass `check()` (patterns are compiled here).
    public func violations(of value: JSONValue) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        collectViolations(of: value, at: .root, into: &found)
        return found
    }

    /// Throws `.validationFailed` listing every violation (the first one in the message).
    public func validate(_ value: JSONValue) throws {
        let found = violations(of: value)
        guard let first = found.first else { return }
        let more = found.count > 1 ? " (and \(found.count - 1) more)" : ""
        throw GuidedJSONError(.validationFailed, first.message + more, path: first.path, violations: found)
    }

    private func collectViolations(of value: JSONValue, at path: JSONPath, into found: inout [SchemaViolation]) {
        func report(_ message: String) {
            found.append(SchemaViolation(path: path, message: message))
        }
        func expect(_ type: String) {
            report("expected \(type), found \(value.typeName)")
        }
        switch kind {
        case .string(let guides):
            guard case .string(let string) = value else { return expect("a string") }
            let length = string.unicodeScalars.count
            if let choices = guides.choices, !choices.contains(string) {
                report("\(value.jsonText) is not one of \(choices.map { JSONValue.string($0).jsonText }.joined(separator: ", "))")
            }
            if let minLength = guides.minLength, length < minLength {
                report("string has \(length) characters, fewer than minLength \(minLength)")
            }
            if let maxLength = guides.maxLength, length > maxLength {
                report("string has \(length) characters, more than maxLength \(maxLength)")
            }
            if let pattern = guides.pattern, let compiled = try? StringPattern(pattern, at: path), !compiled.matches(string) {
                report("string does not match pattern \(JSONValue.string(pattern).jsonText)")
            }
        case .integer(let minimum, let maximum):
            guard let integer = value.integerValue else {
                return expect("an integer")
            }
            if let minimum, integer < minimum { report("\(integer) is less than minimum \(minimum)") }
            if let maximum, integer > maximum { report("\(integer) is greater than maximum \(maximum)") }
        case .number(let minimum, let maximum):
            guard let number = value.numberValue else { return expect("a number") }
            if let minimum, number < minimum { report("\(value.jsonText) is less than minimum \(minimum)") }
            if let maximum, number > maximum { report("\(value.jsonText) is greater than maximum \(maximum)") }
        case .boolean:
            guard case .bool = value else { return expect("a boolean") }
        case .null:
            guard case .null = value else { return expect("null") }
        case .array(let items, let minItems, let maxItems):
            guard case .array(let elements) = value else { return expect("an array") }
            if let minItems, elements.count < minItems { report("array has \(elements.count) items, fewer than minItems \(minItems)") }
            if let maxItems, elements.count > maxItems { report("array has \(elements.count) items, more than maxItems \(maxItems)") }
            for (index, element) in elements.enumerated() {
                items.collectViolations(of: element, at: path.appending(index: index), into: &found)
            }
        case .object(let properties):
            guard case .object(let object) = value else { return expect("an object") }
            let declared = Set(properties.map(\.name))
            for key in object.keys where !declared.contains(key) {
                found.append(SchemaViolation(path: path.appending(key: key), message: "property is not declared by the schema"))
            }
            for property in properties {
                if let member = object[property.name] {
                    property.schema.collectViolations(of: member, at: path.appending(key: property.name), into: &found)
                } else if property.isRequired {
                    report("missing required property \"\(property.name)\"")
                }
            }
        case .anyOf(let alternatives):
            var best: [SchemaViolation]? = nil
            for alternative in alternatives {
                let attempt = alternative.violations(of: value).map {
                    SchemaViolation(path: JSONPath(path.components + $0.path.components), message: $0.message)
                }
                if attempt.isEmpty { return }
                if best == nil || attempt.count < best!.count { best = attempt }
            }
            report("matches none of the \(alternatives.count) alternatives")
            found += best ?? []
        }
    }
}
