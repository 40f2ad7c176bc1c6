import Synchronization
import TandemPluginKit

/// The runner's availability rules, in order (the first that applies answers):
///
/// 1. `notEnabled` when the settings say `enabled: false`.
/// 2. `modelNotReady` when the file is missing (with download progress when a fetch is under
///    way), a directory or not a regular file, empty, shorter than its header or tensor data
///    ("partial"), not yet verified against the pinned `sha256` ("unverified", with hashing
///    progress), or different from it ("badModelFile", naming both digests; calls fail with
///    that code).
/// 3. `deviceNotEligible` when the file is not a model this engine runs ("unusable": an
///    architecture, tensor type or tokenizer it lacks, or a malformed model; calls fail with
///    `badModelFile`, since waiting does not help), or when the weights, the KV cache at the
///    configured context and a margin do not fit in the machine's memory (or the cgroup limit).
/// 4. `unsupportedLocale` when the file declares languages (`general.languages`) and the
///    locale's language is not one of them.
///
/// Cheap: a `stat`, and the header read once per file state (path, size, mtime); the weights
/// are never loaded here.
final class ModelAvailability: Sendable {
    let settings: LlamaSettings
    private let verifier: ChecksumVerifier
    private let facts = Mutex<(stamp: FileStamp, outcome: ModelFileFacts.Outcome)?>(nil)
    private let memoryLimit: Int?

    init(settings: LlamaSettings, verifier: ChecksumVerifier, memoryLimit: Int? = MemoryLimit.bytes()) {
        self.settings = settings
        self.verifier = verifier
        self.memoryLimit = memoryLimit
    }

    /// The file's header facts when the file is there and usable, whatever else holds.
    func currentFacts() -> ModelFileFacts? {
        guard let stamp = FileStamp.of(settings.modelPath).stamp, case .usable(let facts) = outcome(for: stamp) else { return nil }
        return facts
    }

    func check(locale: String?) -> Availability {
        guard settings.enabled else {
            return .unavailable(.notEnabled, detail: "the local runner is disabled in the config (enabled: false)")
        }
        let path = settings.modelPath
        let (kind, stamp, error) = FileStamp.of(path)
        switch kind {
        case .missing:
            if let download = DownloadProgress.find(for: path) {
                return .unavailable(.modelNotReady, detail: download.detail, progress: download.fraction)
            }
            let why = error == 2 ? "no file at \(path)" : "cannot stat \(path) (errno \(error))"
            return .unavailable(.modelNotReady, detail: "missing: \(why), named by the \(settings.model); run `make model`, or change the setting")
        case .directory:
            return .unavailable(.modelNotReady, detail: "not a model file: \(path) is a directory")
        case .notRegular:
            return .unavailable(.modelNotReady, detail: "not a model file: \(path) is not a regular file")
        case .file:
            break
        }
        guard let stamp else { return .unavailable(.unknown, detail: "cannot stat \(path)") }
        if stamp.size == 0 {
            return .unavailable(.modelNotReady, detail: "partial: \(path) has zero bytes")
        }
        let facts: ModelFileFacts
        switch outcome(for: stamp) {
        case .partial(let why):
            let download = DownloadProgress.find(for: path)
            return .unavailable(.modelNotReady, detail: "partial: \(why)", progress: download?.fraction)
        case .unusable(let why):
            return .unavailable(.deviceNotEligible, detail: Self.unusable(why))
        case .usable(let usable):
            facts = usable
        }
        if let problem = pinProblem(stamp) { return problem }
        let context = effectiveContext(facts)
        let needed = facts.memoryNeeded(context: context)
        if let memoryLimit, needed > memoryLimit {
            return .unavailable(.deviceNotEligible, detail: "the model needs about \(needed >> 20) MiB at context \(context), this machine allows \(memoryLimit >> 20) MiB")
        }
        if let locale, !locale.isEmpty, !facts.accepts(locale: locale) {
            return .unavailable(.unsupportedLocale, detail: "\(facts.modelVersion) declares the languages \(facts.languages.joined(separator: ", ")), not \(locale)")
        }
        return .available
    }

    /// The context window at which the model runs: the setting, else the model's own capped at
    /// `LlamaSettings.defaultContextCap`, never beyond the model's.
    func effectiveContext(_ facts: ModelFileFacts) -> Int {
        min(settings.context ?? LlamaSettings.defaultContextCap, facts.contextLength)
    }

    /// What the pinned SHA-256 says about the file version `stamp`: nil when it matches (or
    /// nothing is pinned), else `modelNotReady` while the file is hashed (with progress), for a
    /// mismatch (`badModelFile:` with both digests and the file) or when it cannot be read.
    private func pinProblem(_ stamp: FileStamp) -> Availability? {
        guard let expected = settings.sha256 else { return nil }
        switch verifier.state(of: stamp) {
        case .hashed(let actual) where actual == expected:
            return nil
        case .hashed(let actual):
            return .unavailable(.modelNotReady, detail: Self.mismatch(path: stamp.path, actual: actual, expected: expected))
        case .hashing(let fraction):
            return .unavailable(
                .modelNotReady, detail: "unverified: checking \(stamp.path) against the pinned SHA-256 (\(Int(fraction * 100))%)",
                progress: fraction)
        case .failed(let why):
            return .unavailable(.modelNotReady, detail: "unverified: \(why)")
        }
    }

    static func unusable(_ why: String) -> String { "unusable model file: \(why)" }

    static func mismatch(path: String, actual: String, expected: String) -> String {
        "badModelFile: \(path) has SHA-256 \(actual), but the setting sha256 pins \(expected)"
    }

    /// Waits for the hash of the current file version when a pin needs it (so a caller who asks
    /// to generate right after start-up is served once the check passes), then fails with
    /// `badModelFile` when the file does not match its pin. Returns false when stopped first.
    func awaitVerification(shouldStop: () -> Bool) throws(BackendFailure) -> Bool {
        guard let expected = settings.sha256, let stamp = FileStamp.of(settings.modelPath).stamp else { return true }
        guard let state = verifier.wait(for: stamp, shouldStop: shouldStop) else { return false }
        if case .hashed(let actual) = state, actual != expected {
            throw BackendFailure(.badModelFile, Self.mismatch(path: stamp.path, actual: actual, expected: expected))
        }
        return true
    }

    /// The gate before a call loads or uses the model: not cancelled, the pinned checksum
    /// verified (waiting for a running check), and available for `locale`; else the failure.
    func requireReady(id: String, locale: String?, cancellation: PluginCancellation) throws(BackendFailure) {
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled before the call started") }
        guard try awaitVerification(shouldStop: { cancellation.isCancelled }) else {
            throw BackendFailure(.cancelled, "cancelled while the model file was being verified")
        }
        if let stamp = FileStamp.of(settings.modelPath).stamp, case .unusable(let why) = outcome(for: stamp) {
            throw BackendFailure(.badModelFile, "\(id) cannot run \(stamp.path): \(Self.unusable(why))")
        }
        if case .unavailable(let reason, let detail, _) = check(locale: locale) {
            throw BackendFailure(.unavailable, "\(id) is unavailable (\(reason.name)): \(detail)")
        }
    }

    private func outcome(for stamp: FileStamp) -> ModelFileFacts.Outcome {
        if let cached = facts.withLock({ $0 }), cached.stamp == stamp { return cached.outcome }
        let outcome = ModelFileFacts.read(path: stamp.path)
        facts.withLock { $0 = (stamp, outcome) }
        return outcome
    }
}
