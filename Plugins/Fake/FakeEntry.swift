import CTandemABI
import TandemPluginKit

/// The fake backend's only exported symbol.
@_cdecl("tandem_plugin_entry_v1")
public func tandemPluginEntry(
    _ request: UnsafePointer<tandem_load_request>?, _ response: UnsafeMutablePointer<tandem_load_response>?,
    _ error: UnsafeMutablePointer<tandem_error>?
) -> tandem_status {
    PluginExport.load(request, response, error, plugin: fakeDescriptor)
}

let fakeDescriptor = PluginDescriptor(id: "tandem.fake", name: "Tandem fake backend", version: "1.0.0") { settings throws(BackendFailure) in
    FakeModel(script: try FakeScript(settings: &settings))
}
