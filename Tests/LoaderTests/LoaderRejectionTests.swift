import Foundation
import PluginFixtures
import Tandem
import Testing

/// Bad plugins, built here, each refused with its precise reason while the good ones load.
@Suite struct LoaderRejectionTests {
    /// One folder holding every kind of bad file next to good ones: the pass goes on after each.
    @Test func eachBadFileIsRefusedWithItsReasonAndTheGoodOnesLoad() throws {
        let folder = try PluginFolder()
        try folder.compile("a-echo.so", source: PluginFolder.echoSource)
        try folder.write("b-not-elf.so", Array("#!/bin/sh\necho not a plugin\n".utf8))
        try folder.write("c-empty.so", [])
        let good = try folder.bytes("a-echo.so")
        try folder.write("d-truncated.so", Array(good.prefix(good.count / 2)))
        try folder.write("e-truncated-header.so", Array(good.prefix(40)))
        // Without section headers only the segment check can see the truncation.
        var stripped = good
        for offset in [0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3C, 0x3D, 0x3E, 0x3F] { stripped[offset] = 0 }
        try folder.write("e2-truncated-segment.so", Array(stripped.prefix(good.count / 2)))
        try folder.compile("f-no-entry.so", defines: ["FIXTURE_NO_ENTRY"])
        try folder.compile("g-unresolved.so", defines: ["FIXTURE_UNRESOLVED"])
        try folder.compile("h-abi-2.so", defines: ["FIXTURE_ID=\"test.abi2\"", "FIXTURE_MIN=0x00020000u", "FIXTURE_MAX=0x00020000u"])
        try folder.compile("i-abi-liar.so", defines: ["FIXTURE_ID=\"test.liar\"", "FIXTURE_LIES_ABI"])
        try folder.compile("j-init-fails.so", defines: ["FIXTURE_INIT_FAILS"])
        try folder.compile("k-echo-again.so", source: PluginFolder.echoSource)
        try folder.compile("l-world-writable.so", defines: ["FIXTURE_ID=\"test.writable\""])
        chmod(folder.file("l-world-writable.so"), 0o757)
        try folder.compile("m-null-table.so", defines: ["FIXTURE_ID=\"test.nulltable\"", "FIXTURE_NULL_TABLE"])
        try folder.compile("n-bad-id.so", defines: ["FIXTURE_ID=\"has space\""])
        try folder.compile("n2-small-table.so", defines: ["FIXTURE_ID=\"test.smalltable\"", "FIXTURE_SMALL_TABLE"])
        try folder.compile("o-fixture.so", defines: ["FIXTURE_ID=\"test.fixture\""])
        try folder.write("p-readme.txt", Array("not a .so: ignored".utf8))
        try folder.compile(".q-hidden.so", defines: ["FIXTURE_ID=\"test.hidden\""])

        let catalog = PluginLoader(directory: folder.path).load()

        #expect(catalog.plugins.map(\.id) == ["tandem.echo-c", "test.fixture"])
        #expect(catalog.plugins.map(\.path) == [folder.file("a-echo.so"), folder.file("o-fixture.so")])
        let expected: [(String, PluginRejection.Code, String)] = [
            ("b-not-elf.so", .notELF, "not an ELF file"),
            ("c-empty.so", .emptyFile, "0 bytes"),
            ("d-truncated.so", .truncated, "section header table ends at byte \(good.count) but the file has \(good.count / 2) bytes"),
            ("e-truncated-header.so", .truncated, "shorter than the 64-byte ELF header"),
            ("e2-truncated-segment.so", .truncated, "but the file has \(good.count / 2) bytes"),
            ("f-no-entry.so", .missingEntrySymbol, "tandem_plugin_entry_v1"),
            ("g-unresolved.so", .unresolvedSymbol, "tandem_fixture_missing"),
            ("h-abi-2.so", .incompatibleABI, "host offers 1.0–1.0"),
            ("i-abi-liar.so", .incompatibleABI, "chose ABI 7.0"),
            ("j-init-fails.so", .initFailed, "fixture: cannot reach its model folder"),
            ("k-echo-again.so", .duplicateID, "tandem.echo-c is already provided by \(folder.file("a-echo.so"))"),
            ("l-world-writable.so", .insecurePermissions, "writable by others (mode 0757)"),
            ("m-null-table.so", .invalidAnswer, "the plugin table is NULL"),
            ("n-bad-id.so", .invalidAnswer, "\"has space\" is not 1 to 64 characters"),
            ("n2-small-table.so", .invalidAnswer, "test.smalltable: plugin table struct_size 4 is too small"),
        ]
        #expect(catalog.rejections.map(\.path) == expected.map { folder.file($0.0) })
        for (rejection, (name, code, fragment)) in zip(catalog.rejections, expected) {
            #expect(rejection.code == code, "\(name): \(rejection)")
            #expect(rejection.message.contains(fragment), "\(name): \(rejection.message)")
        }
        #expect(catalog.duration > .zero)
    }

    /// The preflight reports the system loader's own words, not libltdl's "file not found".
    @Test func aMissingDependencyIsReportedWithTheLoadersOwnMessage() throws {
        let folder = try PluginFolder()
        let dependencies = try PluginFolder()
        let source = dependencies.file("dependency.c")
        try Array("__attribute__((visibility(\"default\"))) int tandem_fixture_missing(void) { return 0; }\n".utf8).write(to: source)
        try dependencies.compile("libtandemdependency.so", source: source)
        try folder.compile("needs-dependency.so", defines: ["FIXTURE_UNRESOLVED"], libraries: ["-L", dependencies.path, "-ltandemdependency"])
        try FileManager.default.removeItem(atPath: dependencies.file("libtandemdependency.so"))
        let catalog = PluginLoader(directory: folder.path).load()
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.map(\.code) == [.openFailed])
        #expect(catalog.rejections.first?.message.contains("libtandemdependency.so: cannot open shared object file") == true)
    }

    @Test func aGroupWritableFolderIsRefusedAndNothingInItLoads() throws {
        let folder = try PluginFolder()
        try folder.compile("echo.so", source: PluginFolder.echoSource)
        chmod(folder.path, 0o770)
        let catalog = PluginLoader(directory: folder.path).load()
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.count == 1)
        #expect(catalog.rejections.first?.code == .insecurePermissions)
        #expect(catalog.rejections.first?.path == folder.path)
        #expect(catalog.rejections.first?.message.contains("folder is writable by its group (mode 0770)") == true)
    }

    @Test func aGroupWritablePluginIsRefused() throws {
        let folder = try PluginFolder()
        try folder.compile("fixture.so")
        chmod(folder.file("fixture.so"), 0o775)
        let catalog = PluginLoader(directory: folder.path).load()
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.map(\.code) == [.insecurePermissions])
        #expect(catalog.rejections.first?.message.contains("writable by its group") == true)
    }

    @Test func aMissingFolderIsReportedNotFatal() {
        let catalog = PluginLoader(directory: "/nonexistent/tandem-plugins").load()
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.map(\.code) == [.unreadable])
        #expect(catalog.rejections.first?.message.contains("No such file or directory") == true)
    }

    @Test func elfFilesForAnotherMachineOrNotSharedAreRefusedBeforeLoading() throws {
        let folder = try PluginFolder()
        try folder.compile("source.so")
        var foreign = try folder.bytes("source.so")
        foreign[18] = 183  // e_machine: AArch64 on x86-64 (or x86-64's 62 would be used on arm64)
        foreign[19] = 0
        if foreign[18] == UInt8(truncatingIfNeeded: 183) && ProcessInfo.processInfo.machineHardwareName == "aarch64" {
            foreign[18] = 62
        }
        try folder.write("a-foreign.so", foreign)
        try folder.compile("b-object.so", extraFlags: ["-c"])
        var thirtyTwoBit = try folder.bytes("source.so")
        thirtyTwoBit[4] = 1  // EI_CLASS: ELFCLASS32
        try folder.write("c-class32.so", thirtyTwoBit)
        try FileManager.default.removeItem(atPath: folder.file("source.so"))

        let catalog = PluginLoader(directory: folder.path).load()
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.map(\.code) == [.wrongArchitecture, .notSharedObject, .wrongArchitecture])
        #expect(catalog.rejections.map(\.message).joined(separator: "\n").contains("is not this host's"))
    }

    @Test func loadingTheSameFolderAgainReusesTheResidentPlugins() throws {
        let folder = try PluginFolder()
        try folder.compile("echo.so", source: PluginFolder.echoSource)
        let first = PluginLoader(directory: folder.path).load()
        let second = PluginLoader(directory: folder.path).load()
        #expect(first.plugins.count == 1)
        #expect(second.plugins.count == 1)
        #expect(first.plugins.first === second.plugins.first)
        #expect(first.plugins.first?.abiVersionText == "1.0")
    }
}

extension ProcessInfo {
    fileprivate var machineHardwareName: String {
        var names = utsname()
        uname(&names)
        return withUnsafeBytes(of: names.machine) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}
