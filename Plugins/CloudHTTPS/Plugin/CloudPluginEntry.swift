import CTandemABI
import CloudHTTPSCore
import TandemBridge
import TandemPluginKit

/// The plugin's identity and how it opens a model from its settings. Its rate-limit cooldown is
/// kept on disk too (CooldownFile), so it holds across processes.
let cloudPlugin = PluginDescriptor(id: "tandem.cloud", name: "Cloud HTTPS (Gemini API, OpenAI-compatible)", version: "1.0.0") { settings throws(BackendFailure) in
    let settings = try CloudSettings(&settings)
    return CloudModel(settings: settings, cooldown: RateLimitCooldown(file: CooldownFile.forModel(settings)))
}

/// The one symbol the host looks up in plugins.d/tandem.cloud.so.
@_cdecl("tandem_plugin_entry_v1")
public func tandemPluginEntry(
    _ request: UnsafePointer<tandem_load_request>?, _ response: UnsafeMutablePointer<tandem_load_response>?,
    _ error: UnsafeMutablePointer<tandem_error>?
) -> tandem_status {
    PluginExport.load(request, response, error, plugin: cloudPlugin)
}
