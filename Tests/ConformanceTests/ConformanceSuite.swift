import Tandem
import Testing

/// Every plugin in plugins.d/ against the ABI's rules, through the real loader. Serialized: the
/// negotiation checks call plugin entries again, which the ABI marks exclusive.
@Suite(.serialized) struct ConformanceSuite {
    /// `make test` installs the shipped plugins first; an empty folder would prove nothing.
    @Test func pluginsFolderHoldsTheShippedPluginsAndRefusesNothing() {
        let catalog = ConformanceEnvironment.catalog
        #expect(catalog.rejections.isEmpty, "refused: \(catalog.rejections)")
        let ids = Set(ConformanceEnvironment.pluginIDs)
        #expect(ids.isSuperset(of: ["tandem.fake", "tandem.echo-c"]), "found \(ids.sorted()) in \(catalog.directory); run make plugins")
    }

    @Test(arguments: ConformanceEnvironment.pluginIDs)
    func identityIsWellFormed(_ id: String) throws {
        let plugin = try ConformanceEnvironment.plugin(id)
        #expect(!plugin.name.isEmpty)
        #expect(!plugin.version.isEmpty)
        #expect(PluginLoader.supportedABI.contains(plugin.abiVersion))
        let backend = try ConformanceEnvironment.open(id)
        #expect(!backend.info.id.isEmpty)
        #expect(!backend.info.displayName.isEmpty)
        #expect(backend.info.capabilities.contains(.embeddings) == (backend.info.embeddingDimensions > 0))
        #expect(backend.info.capabilities.contains(.tokenCounting) == (backend.model.pointee.count_tokens != nil))
        #expect(backend.info.capabilities.contains(.embeddings) == (backend.model.pointee.embed != nil))
    }
}
