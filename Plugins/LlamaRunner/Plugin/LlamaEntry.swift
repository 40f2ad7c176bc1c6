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

let llamaDescriptor = PluginDescriptor(id: "tandem.llama", name: "Tandem local llama runner", version: "1.0.0") { settings throws(BackendFailure) in
    LlamaRunnerModel(settings: try LlamaSettings(&settings))
}
