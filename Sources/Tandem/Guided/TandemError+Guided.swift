import GuidedJSON

extension TandemError {
    /// An error whose cause is a schema or document problem (kept in `guided`, with its path).
    init(_ code: Code, _ message: String, guided: GuidedJSONError) {
        self.init(code, "\(message): \(guided)")
        self.guided = guided
    }

    /// A schema the host cannot express or enforce, found before any backend call.
    static func unexpressible(_ what: String, _ error: any Error) -> TandemError {
        guard let guided = error as? GuidedJSONError else { return TandemError(.unsupportedGuide, "\(what): \(error)") }
        return TandemError(.unsupportedGuide, what, guided: guided)
    }
}

extension GenerationSchema {
    /// Checks the host can express this schema (bounded nesting and size, no reference cycles,
    /// supported guides only) and that its JSON Schema form reads back; `what` names it in the
    /// error (`"response schema"`, `"tool weather"`).
    func checkedJSONSchemaText(_ what: String) throws(TandemError) -> String {
        do {
            try check()
            let text = jsonSchemaText
            _ = try GenerationSchema(jsonSchema: text)
            return text
        } catch {
            throw .unexpressible(what, error)
        }
    }
}
