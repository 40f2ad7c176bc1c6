import Foundation
import Tandem
import Testing

/// Availability through the ABI, with fixture files in a fresh folder per test, removed after
/// it (the copies of the model are large). None of these load weights.
final class AvailabilityTests {
    let folder: String
    let modelName = "SmolLM2-135M-Instruct.Q4_1.gguf"

    init() throws { folder = try RunnerPlugin.temporaryFolder() }
    deinit { try? FileManager.default.removeItem(atPath: folder) }

    var fixturePath: String { folder + "/" + modelName }

    func availability(_ settings: [String: String] = [:], locale: String? = nil) throws -> Availability {
        try RunnerPlugin.open(["model": fixturePath].merging(settings) { $1 }).availability(locale: locale)
    }

    func expectNotReady(_ answer: Availability, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .unavailable(let reason, let detail, _) = answer else {
            Issue.record("available, expected modelNotReady with \(fragment)", sourceLocation: sourceLocation)
            return
        }
        #expect(reason == .modelNotReady, sourceLocation: sourceLocation)
        #expect(detail.contains(fragment), "detail: \(detail)", sourceLocation: sourceLocation)
    }

    func copyModel(bytes: Int? = nil) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RunnerPlugin.modelPath), options: .alwaysMapped)
        try (bytes.map { data.prefix($0) } ?? data).write(to: URL(fileURLWithPath: fixturePath))
    }

    @Test func realModelIsAvailable() throws {
        #expect(try RunnerPlugin.open().availability(locale: nil) == .available)
    }

    @Test func missingFileIsNotReady() throws {
        expectNotReady(try availability(), "missing: no file at \(fixturePath)")
    }

    @Test func zeroBytesIsPartial() throws {
        FileManager.default.createFile(atPath: fixturePath, contents: Data())
        expectNotReady(try availability(), "partial: \(fixturePath) has zero bytes")
    }

    @Test func truncatedCopyIsPartial() throws {
        try copyModel(bytes: 50 << 20)  // the header is whole, the tensor data is cut
        expectNotReady(try availability(), "partial:")
        try copyModel(bytes: 4096)  // cut inside the header
        expectNotReady(try availability(), "partial:")
    }

    @Test func directoryIsNotAModel() throws {
        try FileManager.default.createDirectory(atPath: fixturePath, withIntermediateDirectories: false)
        expectNotReady(try availability(), "is a directory")
    }

    /// Waiting does not make an unusable file usable: not `modelNotReady`.
    @Test func notAGGUFFileIsUnusable() throws {
        FileManager.default.createFile(atPath: fixturePath, contents: Data(repeating: 0x41, count: 4096))
        let answer = try availability()
        guard case .unavailable(.deviceNotEligible, let detail, nil) = answer else { Issue.record("got \(answer)"); return }
        #expect(detail.hasPrefix("unusable model file: wrongMagic"), "\(detail)")
    }

    @Test func disabledIsNotEnabled() throws {
        let answer = try RunnerPlugin.open(["enabled": "false"]).availability(locale: nil)
        guard case .unavailable(.notEnabled, _, _) = answer else { Issue.record("got \(answer)"); return }
    }

    /// `make model` in progress: progress is model.part's size over the expected size.
    @Test func fetchInProgressReportsProgress() throws {
        let work = folder + "/.fetch.AbC123"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        try "\(modelName)\n".write(toFile: work + "/target", atomically: true, encoding: .utf8)
        expectNotReady(try availability(), "downloading: make model is fetching")
        try "1000".write(toFile: work + "/expected-size", atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: work + "/model.part", contents: Data(count: 250))
        let answer = try availability()
        expectNotReady(answer, "250 of 1000 bytes")
        guard case .unavailable(_, _, let progress) = answer else { return }
        #expect(progress == 0.25)
    }

    @Test func partialDownloadBesideTheFileIsReported() throws {
        FileManager.default.createFile(atPath: fixturePath + ".part", contents: Data(count: 123))
        expectNotReady(try availability(), "partial download: \(modelName).part has 123 bytes")
    }

    /// The model declares English only (`general.languages = ["en"]`).
    @Test func localesOutsideTheModelsLanguagesAreUnsupported() throws {
        let backend = try RunnerPlugin.open()
        #expect(backend.availability(locale: "en") == .available)
        #expect(backend.availability(locale: "en-GB") == .available)
        guard case .unavailable(.unsupportedLocale, let detail, _) = backend.availability(locale: "de-CH") else {
            Issue.record("de-CH was accepted"); return
        }
        #expect(detail.contains("en") && detail.contains("de-CH"))
    }

    /// A pinned digest: unverified while the check runs (with progress), then available; a wrong
    /// pin is badModelFile with both digests.
    @Test func pinnedDigestIsVerifiedInTheBackground() throws {
        try copyModel()  // a new file state, so no cached verification applies
        let first = try availability(["sha256": RunnerPlugin.modelSHA256])
        expectNotReady(first, "unverified: checking")
        let backend = try RunnerPlugin.open(["model": fixturePath, "sha256": RunnerPlugin.modelSHA256])
        let deadline = ContinuousClock.now + .seconds(60)
        while backend.availability(locale: nil) != .available, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(backend.availability(locale: nil) == .available)

        let wrong = String(repeating: "0", count: 64)
        let pinnedWrong = try RunnerPlugin.open(["model": fixturePath, "sha256": wrong])
        var answer = pinnedWrong.availability(locale: nil)
        while case .unavailable(_, let detail, _) = answer, detail.contains("checking"), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            answer = pinnedWrong.availability(locale: nil)
        }
        expectNotReady(answer, "badModelFile: \(fixturePath) has SHA-256 \(RunnerPlugin.modelSHA256), but the setting sha256 pins \(wrong)")
        // A call fails with badModelFile itself, naming both digests.
        #expect {
            try pinnedWrong.generate(BackendRequest(messages: [.user("hi")]), cancellation: CancellationToken()) { _ in true }
        } throws: { error in
            guard let failure = error as? BackendFailure else { return false }
            return failure.status == .badModelFile && failure.message.contains(RunnerPlugin.modelSHA256) && failure.message.contains(wrong)
        }
    }

    @Test func badSettingsAreRejectedNamingTheKey() throws {
        let cases: [([String: String], String)] = [
            (["modle": "x"], "unknown setting \"modle\""),
            (["threads": "0"], "setting threads"),
            (["context": "many"], "setting context"),
            (["enabled": "yes"], "setting enabled"),
            (["sha256": "abc"], "setting sha256"),
            (["kind": "cloud"], "setting kind"),
        ]
        for (settings, fragment) in cases {
            do {
                _ = try RunnerPlugin.open(settings)
                Issue.record("\(settings) was accepted")
            } catch {
                #expect(error.status == .invalidArgument)
                #expect(error.message.contains(fragment), "\(settings): \(error.message)")
            }
        }
    }

    @Test func generatingWhileNotReadyIsUnavailable() throws {
        let backend = try RunnerPlugin.open(["model": fixturePath])
        do {
            _ = try backend.collect(BackendRequest(messages: [Message(role: .user, content: "Hi")]))
            Issue.record("generated without a model file")
        } catch {
            #expect(error.status == .unavailable)
            #expect(error.message.contains("modelNotReady"), "\(error.message)")
        }
    }
}
