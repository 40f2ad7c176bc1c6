import Glibc
import Synchronization

/// Whether this machine has any route off itself, read from the kernel's routing tables
/// (`/proc/net/route`, `/proc/net/ipv6_route`): no network round trip, a few microseconds, and
/// cached for a moment because availability may be asked before every request.
public final class NetworkRoutes: Sendable {
    public static let system = NetworkRoutes()

    private let ipv4Path: String
    private let ipv6Path: String
    private let cacheMilliseconds: Int64
    private let cache = Mutex<(at: Int64, answer: Bool)?>(nil)

    public init(ipv4Path: String = "/proc/net/route", ipv6Path: String = "/proc/net/ipv6_route", cacheMilliseconds: Int64 = 2_000) {
        self.ipv4Path = ipv4Path
        self.ipv6Path = ipv6Path
        self.cacheMilliseconds = cacheMilliseconds
    }

    /// True when an interface other than loopback has a usable route. When neither table can be
    /// read (not Linux, /proc hidden) the answer is true: unknown is not offline.
    public var hasNonLoopbackRoute: Bool {
        let now = MonotonicClock.nowMilliseconds()
        if let cached = cache.withLock({ $0 }), now - cached.at < cacheMilliseconds { return cached.answer }
        let v4 = Self.readFile(ipv4Path)
        let v6 = Self.readFile(ipv6Path)
        let answer: Bool
        if v4 == nil && v6 == nil {
            answer = true
        } else {
            answer = Self.ipv4HasRoute(v4 ?? "") || Self.ipv6HasRoute(v6 ?? "")
        }
        cache.withLock { $0 = (now, answer) }
        return answer
    }

    private static let routeUp: UInt32 = 0x1

    /// `Iface Destination Gateway Flags ...` with a header line; flags in hex.
    static func ipv4HasRoute(_ table: String) -> Bool {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 4, fields[0] != "lo", let flags = UInt32(fields[3], radix: 16) else { continue }
            if flags & routeUp != 0 { return true }
        }
        return false
    }

    /// `dest plen src plen nexthop metric refcnt use flags iface`, no header; link-local
    /// (fe80::/10) and multicast (ff00::/8) routes exist on every up interface and prove nothing.
    static func ipv6HasRoute(_ table: String) -> Bool {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[9] != "lo", let flags = UInt32(fields[8], radix: 16) else { continue }
            let destination = fields[0].lowercased()
            if destination.hasPrefix("fe8") || destination.hasPrefix("fe9") || destination.hasPrefix("fea")
                || destination.hasPrefix("feb") || destination.hasPrefix("ff") { continue }
            if flags & routeUp != 0 { return true }
        }
        return false
    }

    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while out.count < 4 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
