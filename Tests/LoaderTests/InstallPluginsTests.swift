import Foundation
import PluginFixtures
import Tandem
import Testing

/// scripts/install-plugins.sh, which `make plugins` runs: lib<X>.so -> <plugin id>.so, atomically.
@Suite struct InstallPluginsTests {
    static let script = PluginFolder.packageRoot + "/scripts/install-plugins.sh"

    @Test func pluginsAreInstalledUnderTheirIdWithSafeModesAndNoLeftovers() throws {
        let build = try PluginFolder()
        let library = try build.compile("libTandemEchoC.so", source: PluginFolder.echoSource)
        chmod(library, 0o777)  // whatever the build left, the install sets 0755
        let target = build.file("plugins.d")
        try PluginFolder.run("/bin/bash", [Self.script, target, "\(library)=tandem.echo-c"])
        let names = try FileManager.default.contentsOfDirectory(atPath: target)
        #expect(names == ["tandem.echo-c.so"])
        let attributes = try FileManager.default.attributesOfItem(atPath: target + "/tandem.echo-c.so")
        #expect((attributes[.posixPermissions] as? Int) == 0o755)
        let folder = try FileManager.default.attributesOfItem(atPath: target)
        #expect((folder[.posixPermissions] as? Int) == 0o755)
        #expect(PluginLoader(directory: target).load().plugins.map(\.id) == ["tandem.echo-c"])
    }

    @Test func aMissingLibraryOrABadIdStopsTheInstall() throws {
        let build = try PluginFolder()
        let target = build.file("plugins.d")
        #expect(throws: CommandFailure.self) { try PluginFolder.run("/bin/bash", [Self.script, target, build.file("libNone.so") + "=x.y"]) }
        let library = try build.compile("libFixture.so")
        #expect(throws: CommandFailure.self) { try PluginFolder.run("/bin/bash", [Self.script, target, library + "=bad id"]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }
}
