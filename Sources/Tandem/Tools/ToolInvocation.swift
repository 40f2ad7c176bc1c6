import GuidedJSON

/// What became of one tool call: its output as message text, or whose fault it was that there
/// is none (the model's arguments, or the tool itself).
enum ToolInvocation: Sendable {
    case output(String)
    /// `Arguments` rejected the validated content; reported to the model like a schema violation.
    case invalidArguments(any Error)
    case failed(any Error)
}

extension Tool {
    /// Decodes the arguments and runs the tool. Text output goes to the model as is, structured
    /// output as its JSON text.
    func invoke(_ arguments: GeneratedContent) async -> ToolInvocation {
        let decoded: Arguments
        do { decoded = try Arguments(arguments) } catch { return .invalidArguments(error) }
        do {
            let output = try await call(arguments: decoded)
            return .output((output as? String) ?? output.generatedContent.jsonText)
        } catch {
            return .failed(error)
        }
    }
}
