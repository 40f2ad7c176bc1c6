/// The process exit codes of `tandem`, documented in `tandem --help`.
struct ExitCode: Hashable, CustomStringConvertible {
    let rawValue: Int32
    let meaning: String

    static let success = ExitCode(rawValue: 0, meaning: "success")
    static let failure = ExitCode(rawValue: 1, meaning: "any other failure")
    static let usage = ExitCode(rawValue: 2, meaning: "usage error: unknown command or option, bad value, empty prompt")
    static let config = ExitCode(rawValue: 3, meaning: "config error: file missing or invalid, backend cannot be opened")
    static let unavailable = ExitCode(rawValue: 4, meaning: "no model may serve: unavailable or unsupported request")
    static let cancelled = ExitCode(rawValue: 5, meaning: "cancelled (Ctrl-C) or timed out")
    static let backendError = ExitCode(rawValue: 6, meaning: "backend error (offline, rate limited, server error, guardrail, ...)")

    static let all: [ExitCode] = [.success, .failure, .usage, .config, .unavailable, .cancelled, .backendError]

    var description: String { "\(rawValue)" }
}
