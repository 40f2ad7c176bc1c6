import CTandemABI
import TandemPluginKit

/// The local runner's only exported symbol.
@_cdecl("tandem_plugin_entry_v1")
public func tandemPluginEntry(
    _ request: UnsafePointer<tandem_load_request>?, _ response: UnsafeMutablePointer<tandem_load_response>?,
    _ error: UnsafeMutablePointer<tandem_error>?
) -> tandem_status {
    PluginExport.load(request, response, error, plugin: llamaDescriptor)
}

/// A file whose header says encoder opens as an embeddings-only model, and so does a backend
/// with an `embedding_prefix` setting whose file is missing or unreadable (its header cannot
/// tell); anything else as the chat runner.
let llamaDescriptor = PluginDescriptor(id: "tandem.llama", name: "Tandem local llama runner", version: "1.0.0") { settings throws(BackendFailure) -> PluginModel in
    let settings = try LlamaSettings(&settings)
    // The header is read once, here; the model's rules keep it for their checks.
    let rules = ModelAvailability(settings: settings, verifier: LlamaRunnerModel.verifier)
    let facts = rules.currentFacts()
    if let facts, facts.isEncoder {
        return EncoderRunnerModel(settings: settings, rules: rules, facts: facts)
    }
    if settings.embeddingPrefixSetting != nil {
        guard facts == nil else {
            throw BackendFailure(.invalidArgument, "setting embedding_prefix: applies only to an embedding model, and \(settings.modelPath) is a chat model")
        }
        return EncoderRunnerModel(settings: settings, rules: rules, facts: nil)
    }
    return LlamaRunnerModel(settings: settings, rules: rules)
}
