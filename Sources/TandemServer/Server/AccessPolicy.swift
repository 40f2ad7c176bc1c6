import Foundation

/// Who may talk to the server: a bind address other than loopback only with an API key, and
/// the key compared in constant time. The key itself is never logged or echoed.
public struct AccessPolicy: Sendable {
    let key: [UInt8]?

    public init(apiKey: String?) { key = apiKey.map { Array($0.utf8) } }

    /// Why `host` may not be bound with this policy, or nil when it may.
    public func bindProblem(host: String) -> String? {
        if Self.isLoopback(host) || key != nil { return nil }
        return "--host \(host) is not a loopback address: serving beyond this machine needs an API key (--api-key-env VAR)"
    }

    /// True for 127.0.0.0/8 and ::1.
    static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// True when no key is configured or `authorization` is `Bearer <the key>`.
    func admits(authorization: String?) -> Bool {
        guard let key else { return true }
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return Self.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), key)
    }

    /// Compares every byte of the longer input whatever the contents, so the time taken says
    /// nothing about where the first difference is (only the offered length shows).
    static func constantTimeEqual(_ offered: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: offered.count ^ expected.count)
        difference |= UInt8(offered.count == expected.count ? 0 : 1)
        let length = max(offered.count, expected.count)
        for index in 0..<length {
            let a = index < offered.count ? offered[index] : 0
            let b = index < expected.count ? expected[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
