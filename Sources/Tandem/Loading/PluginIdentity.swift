/// Who a loaded plugin is, without its ABI tables: what `tandem backends` lists, and all the
/// host keeps of a plugin it only loaded in a child process.
public struct PluginIdentity: Hashable, Sendable {
    /// The plugin's stable id (`tandem.fake`).
    public let id: String
    public let name: String
    /// The plugin's own version string.
    public let version: String
    /// The negotiated ABI version, `(major << 16) | minor`.
    public let abiVersion: UInt32
    /// Absolute path of the shared object.
    public let path: String

    /// `"1.0"`.
    public var abiVersionText: String { PluginNegotiation.versionText(abiVersion) }
}
