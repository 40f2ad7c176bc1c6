import TandemBridge

/// The server a model talks to: a base URL checked once at open.
public struct Endpoint: Hashable, Sendable {
    /// Without a trailing slash, e.g. `https://generativelanguage.googleapis.com/v1beta`.
    public let baseURL: String
    public let host: String
    public let isLoopback: Bool

    /// Accepts `https://host[:port][/path]`; plain `http` only for a loopback host (a local
    /// server such as llama.cpp's), so a key never crosses a network in clear text.
    public init(_ text: String, setting: String = "base_url") throws(BackendFailure) {
        var rest = Substring(text)
        let scheme: String
        if rest.hasPrefix("https://") { scheme = "https"; rest = rest.dropFirst(8) }
        else if rest.hasPrefix("http://") { scheme = "http"; rest = rest.dropFirst(7) }
        else { throw BackendFailure(.invalidArgument, "setting \(setting): expected an https:// URL, got \(text)") }
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.isEmpty, !authority.contains("@"), !rest.contains("?"), !rest.contains("#"),
              !text.contains(where: { $0 == " " || $0.asciiValue.map { $0 < 0x20 } ?? false })
        else {
            throw BackendFailure(.invalidArgument, "setting \(setting): \(text) must be scheme://host[:port][/path] without credentials, query or fragment")
        }
        var host = String(authority)
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix(while: { $0 != "]" }))
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        self.host = host
        isLoopback = Self.isLoopbackHost(host)
        if scheme == "http" && !isLoopback {
            throw BackendFailure(.invalidArgument, "setting \(setting): plain http is only allowed for a loopback host (127.0.0.1, ::1, localhost); use https for \(host)")
        }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        let lower = host.lowercased()
        return lower == "localhost" || lower.hasSuffix(".localhost") || lower == "::1" || lower.hasPrefix("127.")
    }
}
