@testable import CloudHTTPSCore
import MockCloudServer
import Foundation
import TandemBridge
import Testing

@Suite struct AvailabilityTests {
    static let onlyLoopback = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    lo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0
    """
    static let withDefaultRoute = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
    """
    static let downRoute = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    eth0\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0
    """
    static let ipv6LinkLocalOnly = """
    fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
    00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
    ff000000000000000000000000000000 08 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000003 00000000 00000001     eth0
    """
    static let ipv6Global = """
    20010db8000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
    """

    @Test func routeTablesAreRead() {
        #expect(!NetworkRoutes.ipv4HasRoute(Self.onlyLoopback))
        #expect(NetworkRoutes.ipv4HasRoute(Self.withDefaultRoute))
        #expect(!NetworkRoutes.ipv4HasRoute(Self.downRoute))
        #expect(!NetworkRoutes.ipv6HasRoute(Self.ipv6LinkLocalOnly))
        #expect(NetworkRoutes.ipv6HasRoute(Self.ipv6Global))
    }

    func routes(v4: String?, v6: String?) throws -> NetworkRoutes {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let v4Path = directory.appendingPathComponent("route").path
        let v6Path = directory.appendingPathComponent("ipv6_route").path
        if let v4 { try v4.write(toFile: v4Path, atomically: true, encoding: .utf8) }
        if let v6 { try v6.write(toFile: v6Path, atomically: true, encoding: .utf8) }
        return NetworkRoutes(ipv4Path: v4Path, ipv6Path: v6Path, cacheMilliseconds: 0)
    }

    @Test func offlineWithoutARouteUnlessTheServerIsLocal() throws {
        _ = MockServer.shared  // sets the key variable
        let none = try routes(v4: Self.onlyLoopback, v6: Self.ipv6LinkLocalOnly)
        let remote = try ModelFactory.open(["dialect": "gemini", "model": "gemini-2.5-flash", "api_key_env": MockServer.keyVariable], routes: none)
        #expect(remote.availability(locale: nil) == .unavailable(.offline, detail: "this machine has no network route besides loopback"))
        let local = try ModelFactory.open(ModelFactory.settings(.gemini, token: "x"), routes: none)
        #expect(local.availability(locale: nil) == .available)
        let online = try ModelFactory.open(["dialect": "gemini", "model": "gemini-2.5-flash", "api_key_env": MockServer.keyVariable], routes: try routes(v4: Self.onlyLoopback, v6: Self.ipv6Global))
        #expect(online.availability(locale: nil) == .available)
        // Unreadable tables are "unknown", which is not offline.
        #expect(try routes(v4: nil, v6: nil).hasNonLoopbackRoute)
    }

    @Test func notConfiguredComesBeforeOffline() throws {
        let none = try routes(v4: Self.onlyLoopback, v6: nil)
        let model = try ModelFactory.open(["dialect": "openai", "model": "m", "api_key_env": "TANDEM_TEST_NOT_SET_ANYWHERE"], routes: none)
        guard case .unavailable(.notConfigured, let detail, _) = model.availability(locale: nil) else { Issue.record("not notConfigured"); return }
        #expect(detail.contains("TANDEM_TEST_NOT_SET_ANYWHERE"))
    }
}
