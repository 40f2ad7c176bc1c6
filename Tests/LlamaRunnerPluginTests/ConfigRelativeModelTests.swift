import Foundation
import PluginFixtures
import Tandem
import Testing

/// A relative `model` setting is relative to the config file's folder, whatever the working
/// directory: the built `tandem` binary runs with a config in one folder and its working
/// directory in another, each test with folders of its own.
final class ConfigRelativeModelTests {
    let configFolder: String
    let workingFolder: String

    init() throws {
        configFolder = try RunnerPlugin.temporaryFolder()
        workingFolder = try RunnerPlugin.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: configFolder + "/model-link.gguf", withDestinationPath: RunnerPlugin.modelPath)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: configFolder)
        try? FileManager.default.removeItem(atPath: workingFolder)
    }

    /// Writes the config (one tandem.llama backend with this model setting) and runs
    /// `tandem --config <it> arguments` from the working folder.
    func tandem(model: String, _ arguments: [String]) throws -> TestProcess.Outcome {
        try TestConfig(routing: .primary("local"), backends: [
            "local": .init(plugin: "tandem.llama", settings: ["model": .string(model), "context": 256, "threads": 1]),
        ]).write(to: configFolder + "/tandem.json")
        return try runBuilt(["--config", configFolder + "/tandem.json"] + arguments, in: workingFolder)
    }

    @Test func aRelativeModelBesideTheConfigIsOpenedFromElsewhere() throws {
        let availability = try tandem(model: "model-link.gguf", ["availability"])
        #expect(availability.status == 0, "\(availability.stderr)")
        #expect(availability.stdout == "local: available\n")
        let answer = try tandem(model: "model-link.gguf", ["respond", "--max-tokens", "4", "Say hello."])
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(!answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(answer.stderr.contains("served by local"), "\(answer.stderr)")
    }

    @Test func anAbsoluteModelIsUsedAsWritten() throws {
        let real = try tandem(model: RunnerPlugin.modelPath, ["availability"])
        #expect(real.stdout == "local: available\n", "\(real.stderr)")
        let absent = workingFolder + "/absent.gguf"
        let missing = try tandem(model: absent, ["availability"])
        #expect(missing.stdout.contains("missing: no file at \(absent), named by the setting model \"\(absent)\";"), "\(missing.stdout)")
    }

    /// The error names the setting, the folder it was resolved against and the absolute path;
    /// a file of that name in the working directory is not taken instead.
    @Test func aMissingRelativeModelIsNamedAsResolved() throws {
        try FileManager.default.createDirectory(atPath: workingFolder + "/models", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: workingFolder + "/models/absent.gguf", withDestinationPath: RunnerPlugin.modelPath)
        let missing = try tandem(model: "models/absent.gguf", ["availability"])
        #expect(missing.stdout.contains(
            "modelNotReady: missing: no file at \(configFolder)/models/absent.gguf, named by the setting model \"models/absent.gguf\" "
                + "(relative to the config folder \(configFolder))"), "\(missing.stdout)")
        let answer = try tandem(model: "models/absent.gguf", ["respond", "Say hello."])
        #expect(answer.status == 4)
        #expect(answer.stderr.contains("no file at \(configFolder)/models/absent.gguf"), "\(answer.stderr)")
    }

    /// Loaded without a config file (the host gave no folder), a relative setting is relative
    /// to the working directory, and the message says so.
    @Test func withoutAConfigFolderTheWorkingDirectoryIsTheBase() throws {
        let answer = try RunnerPlugin.open(["model": "no-such-folder/absent.gguf"]).availability(locale: nil)
        let cwd = FileManager.default.currentDirectoryPath
        guard case .unavailable(.modelNotReady, let detail, _) = answer else { Issue.record("got \(answer)"); return }
        #expect(detail.contains(
            "no file at \(cwd)/no-such-folder/absent.gguf, named by the setting model \"no-such-folder/absent.gguf\" "
                + "(relative to the working directory \(cwd); the host gave no config folder)"), "\(detail)")
    }
}
