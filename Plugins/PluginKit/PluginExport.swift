import CTandemABI
import Glibc
@_exported import TandemBridge

/// What a Swift plugin declares about itself. Its entry function passes this to
/// `PluginExport.load`:
///
/// ```swift
/// @_cdecl("tandem_plugin_entry_v1")
/// public func tandemPluginEntry(_ request: UnsafePointer<tandem_load_request>?,
///                               _ response: UnsafeMutablePointer<tandem_load_response>?,
///                               _ error: UnsafeMutablePointer<tandem_error>?) -> Int32 {
///     PluginExport.load(request, response, error, plugin: myDescriptor)
/// }
/// ```
public struct PluginDescriptor: Sendable {
    public var id: String
    public var name: String
    public var version: String
    /// Opens one model from its settings. Must read every key it accepts from `settings`; the
    /// kit rejects the rest.
    public var open: @Sendable (inout PluginSettings) throws(BackendFailure) -> any PluginModel

    public init(id: String, name: String, version: String,
                open: @escaping @Sendable (inout PluginSettings) throws(BackendFailure) -> any PluginModel) {
        self.id = id
        self.name = name
        self.version = version
        self.open = open
    }
}

/// The entry-point half every Swift plugin shares: version negotiation, the static table, logging.
public enum PluginExport {
    /// The ABI versions this kit implements.
    public static let supported: ClosedRange<UInt32> = tandem_abi_version(1, 0)...TANDEM_ABI_CURRENT

    // Written once by the [exclusive] entry call, read-only afterwards.
    nonisolated(unsafe) private static var descriptor: PluginDescriptor?
    nonisolated(unsafe) private static var host: UnsafePointer<tandem_host>?
    nonisolated(unsafe) private static var identity: (id: UnsafeMutablePointer<CChar>, name: UnsafeMutablePointer<CChar>, version: UnsafeMutablePointer<CChar>)?

    /// The static table, at a stable address for the life of the process (a pointer obtained
    /// with `withUnsafePointer` to a stored property is only valid inside that call).
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<tandem_plugin> = {
        let table = UnsafeMutablePointer<tandem_plugin>.allocate(capacity: 1)
        table.initialize(to: makeTable())
        return table
    }()

    private static func makeTable() -> tandem_plugin {
        tandem_plugin(
            struct_size: UInt32(MemoryLayout<tandem_plugin>.size),
            open_model: { settings, count, out, errorOut in
                do throws(BackendFailure) {
                    guard let out else { throw BackendFailure(.invalidArgument, "out_model must not be NULL") }
                    guard let descriptor = PluginExport.descriptor else { throw BackendFailure(.initFailed, "plugin not loaded") }
                    var parsed = try PluginSettings(settings, count: count, configDirectory: PluginExport.configDirectory)
                    let model = try descriptor.open(&parsed)
                    try parsed.finish()
                    out.pointee = PluginModelBox.makeCModel(model)
                    return TANDEM_OK
                } catch {
                    error.write(to: errorOut)
                    return error.status.rawValue
                }
            },
            get_extension: { _ in nil },
            shutdown: nil)
    }

    /// Negotiates the version and fills the response. [exclusive]
    public static func load(
        _ request: UnsafePointer<tandem_load_request>?, _ response: UnsafeMutablePointer<tandem_load_response>?,
        _ errorOut: UnsafeMutablePointer<tandem_error>?, plugin: PluginDescriptor
    ) -> tandem_status {
        guard let request, let response,
              structHasField(request, structSize: request.pointee.struct_size, \.max_abi),
              structHasField(UnsafePointer(response), structSize: response.pointee.struct_size, \.plugin)
        else {
            BackendFailure(.invalidArgument, "load request or response is NULL or too small").write(to: errorOut)
            return TANDEM_E_INVALID_ARGUMENT
        }
        let offered = request.pointee.min_abi...max(request.pointee.min_abi, request.pointee.max_abi)
        guard request.pointee.min_abi <= request.pointee.max_abi, offered.overlaps(supported) else {
            BackendFailure(.incompatible, "host offers ABI \(versionText(request.pointee.min_abi))–\(versionText(request.pointee.max_abi)), \(plugin.id) speaks \(versionText(supported.lowerBound))–\(versionText(supported.upperBound))").write(to: errorOut)
            return TANDEM_E_INCOMPATIBLE
        }
        // The first successful load wins and is never rewritten: the host table lives as long as
        // the process, and the entry may be called again (conformance checks probe negotiation)
        // while models of this plugin run on other threads.
        if descriptor == nil {
            if structHasField(request, structSize: request.pointee.struct_size, \.host) { host = request.pointee.host }
            descriptor = plugin
            identity = (strdup(plugin.id)!, strdup(plugin.name)!, strdup(plugin.version)!)
        }
        response.pointee.abi_version = min(offered.upperBound, supported.upperBound)
        response.pointee.plugin_id = UnsafePointer(identity!.id)
        response.pointee.plugin_name = UnsafePointer(identity!.name)
        response.pointee.plugin_version = UnsafePointer(identity!.version)
        response.pointee.plugin = UnsafePointer(table)
        return TANDEM_OK
    }

    /// Logs through the host, when it offered a log function. Never pass secrets.
    public static func log(_ level: tandem_log_level, _ message: String) {
        guard let host, structHasField(host, structSize: host.pointee.struct_size, \.log), let log = host.pointee.log else { return }
        log(host.pointee.host_data, level, message)
    }

    /// The folder of the host's config file (`tandem_host.config_directory`), where relative path
    /// settings are anchored; nil when the host gave none (no file, or a host older than the field).
    public static var configDirectory: String? {
        guard let host, structHasField(host, structSize: host.pointee.struct_size, \.config_directory),
              let folder = host.pointee.config_directory else { return nil }
        return String(cString: folder)
    }

    /// Looks up a secret through the host, when it offers a secrets service.
    public static func secret(named name: String) -> String? {
        guard let host, structHasField(host, structSize: host.pointee.struct_size, \.get_secret),
              let lookup = host.pointee.get_secret else { return nil }
        var required = 0
        guard lookup(host.pointee.host_data, name, nil, 0, &required) == TANDEM_E_BUFFER_TOO_SMALL || required > 0,
              required > 0, required < 1 << 20 else { return nil }
        var buffer = [CChar](repeating: 0, count: required)
        guard lookup(host.pointee.host_data, name, &buffer, required, &required) == TANDEM_OK else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func versionText(_ version: UInt32) -> String {
        "\(tandem_abi_major(version)).\(tandem_abi_minor(version))"
    }
}
