/// The outcome of loading a plugins folder: what loaded, what was refused and why, how long it took.
public struct PluginCatalog: Sendable {
    /// Absolute path of the folder.
    public let directory: String
    /// Accepted plugins, in sorted path order.
    public let plugins: [LoadedPlugin]
    /// Refused files (or the folder itself), in sorted path order, each with its precise reason.
    public let rejections: [PluginRejection]
    /// Wall time of the whole pass: listing, checks, opening, negotiation.
    public let duration: Duration

    public func plugin(id: String) -> LoadedPlugin? {
        plugins.first { $0.id == id }
    }

    public var listing: PluginListing {
        PluginListing(directory: directory, plugins: plugins.map(\.identity), rejections: rejections, duration: duration)
    }
}

/// What a plugins folder holds, as `tandem backends` lists it: a `PluginCatalog` without the
/// plugins' tables, which is all a host has of the plugins it loaded only in a child process.
public struct PluginListing: Sendable {
    public let directory: String
    public let plugins: [PluginIdentity]
    public let rejections: [PluginRejection]
    public let duration: Duration

    public func plugin(id: String) -> PluginIdentity? {
        plugins.first { $0.id == id }
    }
}
