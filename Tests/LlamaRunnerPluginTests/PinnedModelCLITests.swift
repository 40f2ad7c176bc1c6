import Foundation
import PluginFixtures
import Glibc
import TandemLlama
import Testing

/// A pinned `sha256` through the built `tandem` binary. Each run is a new
/// process, as an operator's commands are; every test has its own copy of the model (a new file
/// version) and its own digest cache (`XDG_CACHE_HOME`), so no earlier run vouches for it.
final class PinnedModelCLITests {
    let folder: String
    var modelPath: String { folder + "/model.gguf" }
    var cacheFile: String { folder + "/cache/tandem/model-digests" }

    init() throws {
        folder = try RunnerPlugin.temporaryFolder()
        try FileManager.default.copyItem(atPath: RunnerPlugin.modelPath, toPath: modelPath)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    static let wrongPin = String(repeating: "0", count: 64)

    func tandem(pin: String, _ arguments: [String]) throws -> TestProcess.Outcome {
        try TestConfig(routing: .primary("local"), backends: [
            "local": .init(plugin: "tandem.llama", settings: ["model": "model.gguf", "sha256": .string(pin), "context": 256, "threads": 1]),
        ]).write(to: folder + "/tandem.json")
        return try runBuilt(["--config", folder + "/tandem.json"] + arguments, environment: ["XDG_CACHE_HOME": folder + "/cache"])
    }

    func respond(pin: String = RunnerPlugin.modelSHA256, _ extra: [String] = []) throws -> TestProcess.Outcome {
        try tandem(pin: pin, ["respond", "--max-tokens", "4", "--timeout", "120"] + extra + ["Say hello."])
    }

    @Test func aCorrectPinAnswersOnTheFirstRunAndTheFileIsHashedOnce() throws {
        let first = try respond()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("served by local"), "\(first.stderr)")
        let records = try String(contentsOfFile: cacheFile, encoding: .utf8)
        #expect(records.split(separator: "\n").count == 1)
        #expect(records.contains("\t\(RunnerPlugin.modelSHA256)\t\(modelPath)"), "\(records)")
        // availability never waits: it is available at once only because the digest is on record.
        let again = try tandem(pin: RunnerPlugin.modelSHA256, ["availability"])
        #expect(again.stdout == "local: available\n", "\(again.stdout)")
    }

    @Test func aWrongPinIsBadModelFileNamingTheFileAndBothDigests() throws {
        let run = try respond(pin: Self.wrongPin)
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains(
            "badModelFile: \(modelPath) has SHA-256 \(RunnerPlugin.modelSHA256), but the setting sha256 pins \(Self.wrongPin)"), "\(run.stderr)")
        let json = try respond(pin: Self.wrongPin, ["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        let primary = try #require(error["primary"] as? [String: Any])
        #expect(primary["reason"] as? String == "modelNotReady")
        #expect((primary["detail"] as? String)?.contains("badModelFile") == true, "\(primary)")
        // The digest was recorded, so the next look knows at once.
        let look = try tandem(pin: Self.wrongPin, ["availability"])
        #expect(look.stdout.contains("badModelFile: \(modelPath) has SHA-256 \(RunnerPlugin.modelSHA256)"), "\(look.stdout)")
        // And a corrected pin needs no new hash.
        #expect(try tandem(pin: RunnerPlugin.modelSHA256, ["availability"]).stdout == "local: available\n")
    }

    /// One byte changed in place, with the modification time set back exactly: same path, inode,
    /// size and mtime. The ctime moved, so the record no longer applies and the file is hashed again.
    @Test func aFileChangedInPlaceAfterItsRecordIsHashedAgain() throws {
        #expect(try respond().status == 0)
        var before = stat()
        #expect(stat(modelPath, &before) == 0)
        let handle = try #require(FileHandle(forUpdatingAtPath: modelPath))
        let end = try handle.seekToEnd()
        try handle.seek(toOffset: end - 1)
        let last = try #require(try handle.read(upToCount: 1))
        try handle.seek(toOffset: end - 1)
        try handle.write(contentsOf: Data([last[0] ^ 0xFF]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, modelPath, &times, 0) == 0)
        var after = stat()
        #expect(stat(modelPath, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)

        let look = try tandem(pin: RunnerPlugin.modelSHA256, ["availability"])
        #expect(look.stdout.contains("unverified: checking \(modelPath)"), "the record was not taken for the new bytes: \(look.stdout)")
        let run = try respond()
        #expect(run.status == 4, "\(run.stderr)")
        let actual = try Self.sha256(of: modelPath)
        #expect(actual != RunnerPlugin.modelSHA256)
        #expect(run.stderr.contains("badModelFile: \(modelPath) has SHA-256 \(actual), but the setting sha256 pins \(RunnerPlugin.modelSHA256)"), "\(run.stderr)")
    }

    /// A digest cache that others may write could have been forged: it is not read.
    @Test func aCacheOthersMayWriteIsIgnored() throws {
        #expect(try respond().status == 0)
        #expect(chmod(cacheFile, 0o666) == 0)
        let look = try tandem(pin: RunnerPlugin.modelSHA256, ["availability"])
        #expect(look.stdout.contains("unverified: checking"), "\(look.stdout)")
    }

    static func sha256(of path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        var hasher = SHA256()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finish()
    }
}
