import Foundation
import Testing
@testable import Tandem

/// The routing matrix of issue 2 item 8: every mode × every primary state × secondary
/// available or not → who serves, or which error reaches the caller. Generated from the
/// rules of DESIGN §3 (`RoutingMatrix.expectation`), run with `respond` and with `streamResponse`
/// through the real loader, both sides being the `tandem.fake` plugin (`kind` local and cloud).
@Suite struct RoutingMatrixTests {
    @Test(arguments: RoutingMatrix.cases)
    func respondMatrix(_ matrixCase: RoutingMatrix.Case) async throws {
        try await RoutingMatrix.check(matrixCase, factory: .fakePlugin, streaming: false)
    }

    @Test(arguments: RoutingMatrix.cases)
    func streamMatrix(_ matrixCase: RoutingMatrix.Case) async throws {
        try await RoutingMatrix.check(matrixCase, factory: .fakePlugin, streaming: true)
    }

    @Test func matrixCoversEveryModeStateAndSecondary() {
        #expect(RoutingMatrix.cases.count == 4 * (1 + 7 + 6 + 1 + 1) * 2)
    }
}

enum RoutingMatrix {
    static let prompt = "one two three four five"

    enum PrimaryState: Hashable, Sendable, CustomStringConvertible {
        case available
        case unavailable(AvailabilityReason)
        case failsBeforeFirstToken(BackendStatus)
        /// Three tokens reach the caller, then `serverError`.
        case failsAfterThirdToken
        /// Hangs until the caller cancels.
        case cancelled

        static let errorClasses: [BackendStatus] = [.offline, .rateLimited, .serverError, .guardrail, .tls, .decoding]
        static let all: [PrimaryState] =
            [.available] + AvailabilityReason.all.map { .unavailable($0) }
            + errorClasses.map { .failsBeforeFirstToken($0) } + [.failsAfterThirdToken, .cancelled]

        func settings(kind: ModelKind) -> [String: String] {
            var settings = ["kind": kind.rawValue, "model_version": "\(kind.rawValue)-v1"]
            switch self {
            case .available: break
            case .unavailable(let reason): settings["availability"] = reason.name
            case .failsBeforeFirstToken(let status):
                settings["fail_at_token"] = "0"
                settings["error"] = status.name
            case .failsAfterThirdToken:
                settings["fail_at_token"] = "3"
                settings["error"] = BackendStatus.serverError.name
            case .cancelled: settings["hang"] = "true"
            }
            return settings
        }

        var description: String {
            switch self {
            case .available: "available"
            case .unavailable(let reason): "unavailable(\(reason))"
            case .failsBeforeFirstToken(let status): "failsBeforeFirstToken(\(status))"
            case .failsAfterThirdToken: "failsAfterThirdToken"
            case .cancelled: "cancelled"
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var mode: RoutingMode
        var primary: PrimaryState
        var secondaryAvailable: Bool
        var description: String { "\(mode) primary=\(primary) secondary=\(secondaryAvailable ? "available" : "unavailable")" }
    }

    static let cases: [Case] = RoutingMode.allCases.flatMap { mode in
        PrimaryState.all.flatMap { state in
            [true, false].map { Case(mode: mode, primary: state, secondaryAvailable: $0) }
        }
    }

    /// The reason an unavailable secondary gives: what each side typically reports.
    static func unavailableSecondaryReason(kind: ModelKind) -> AvailabilityReason { kind == .local ? .modelNotReady : .offline }

    enum Expectation: Equatable {
        /// Served; by the secondary when `reason` is set (the primary's reason).
        case served(bySecondary: Bool, primaryTried: Bool, reason: String?)
        case failed(TandemError.Code, primaryReason: String, secondaryReason: String?, failureStatus: BackendStatus?)
    }

    /// DESIGN §3 as a table: what must happen in each case.
    static func expectation(_ c: Case) -> Expectation {
        let hasSecondary = c.mode.secondaryKind != nil
        let secondaryReason = c.mode.secondaryKind.map { unavailableSecondaryReason(kind: $0).name }
        /// The primary did not serve for `reason`; may the secondary take over?
        func handOver(primaryTried: Bool, reason: String, failure: BackendStatus?) -> Expectation {
            guard hasSecondary else {
                return failure == nil
                    ? .failed(.unavailable, primaryReason: reason, secondaryReason: nil, failureStatus: nil)
                    : .failed(.backendFailure, primaryReason: reason, secondaryReason: nil, failureStatus: failure)
            }
            return c.secondaryAvailable
                ? .served(bySecondary: true, primaryTried: primaryTried, reason: reason)
                : .failed(.unavailable, primaryReason: reason, secondaryReason: secondaryReason, failureStatus: nil)
        }
        switch c.primary {
        case .available:
            return .served(bySecondary: false, primaryTried: true, reason: nil)
        case .unavailable(let reason):
            return handOver(primaryTried: false, reason: reason.name, failure: nil)
        case .failsBeforeFirstToken(let status):
            // A local primary falls back on any failure; a cloud primary only when offline.
            if c.mode.primaryKind == .cloud && status != .offline {
                return .failed(.backendFailure, primaryReason: status.name, secondaryReason: nil, failureStatus: status)
            }
            return handOver(primaryTried: true, reason: status.name, failure: status)
        case .failsAfterThirdToken:
            return .failed(.backendFailure, primaryReason: "serverError", secondaryReason: nil, failureStatus: .serverError)
        case .cancelled:
            return .failed(.cancelled, primaryReason: "cancelled", secondaryReason: nil, failureStatus: .cancelled)
        }
    }

    enum Observed {
        case response(Response)
        case error(TandemError)
        /// A stream that ended without its finished response (its consumer was cancelled).
        case endedEarly
    }

    static func check(_ c: Case, factory: ModelFactory, streaming: Bool) async throws {
        let primaryKind = c.mode.primaryKind
        let otherKind: ModelKind = primaryKind == .local ? .cloud : .local
        var otherSettings = ["kind": otherKind.rawValue, "model_version": "\(otherKind.rawValue)-v1"]
        if !c.secondaryAvailable { otherSettings["availability"] = unavailableSecondaryReason(kind: otherKind).name }
        let primary = try factory.make(primaryKind.rawValue, c.primary.settings(kind: primaryKind))
        let other = try factory.make(otherKind.rawValue, otherSettings)
        let model = primaryKind == .local
            ? HybridModel(mode: c.mode, local: primary, cloud: other)
            : HybridModel(mode: c.mode, local: other, cloud: primary)
        let session = LanguageModelSession(model: model)

        let run = Task { () -> (Observed, [ResponseSnapshot]) in
            if streaming {
                var seen: [ResponseSnapshot] = []
                do {
                    for try await snapshot in session.streamResponse(to: prompt) { seen.append(snapshot) }
                    // A cancelled consumer's stream simply ends, without the finished response.
                    return (seen.last?.response.map(Observed.response) ?? .endedEarly, seen)
                } catch let error as TandemError {
                    return (.error(error), seen)
                }
            }
            do throws(TandemError) {
                return (.response(try await session.respond(to: prompt)), [])
            } catch {
                return (.error(error), [])
            }
        }
        if case .cancelled = c.primary {
            try await Task.sleep(for: .milliseconds(100))
            run.cancel()
        }
        let (outcome, snapshots) = try await run.value

        switch (expectation(c), outcome) {
        case (.served(let bySecondary, let primaryTried, let reason), .response(let response)):
            let server = bySecondary ? otherKind : primaryKind
            #expect(response.servedBy == server.rawValue, "\(c)")
            #expect(response.rawResponse.modelVersion == "\(server.rawValue)-v1", "\(c)")
            #expect(response.content == prompt, "\(c)")
            #expect(response.fallback.primaryID == primaryKind.rawValue)
            #expect(response.fallback.primaryTried == primaryTried, "\(c)")
            #expect(response.fallback.reason?.name == reason, "\(c)")
            #expect(session.transcript.entries.count == 2)
            if streaming {
                #expect(snapshots.count >= 2, "\(c): text arrives in pieces")
                #expect(snapshots.allSatisfy { $0.servedBy == server.rawValue }, "\(c)")
            }
        case (.failed(let code, let primaryReason, let secondaryReason, let status), .error(let error)):
            #expect(error.code == code, "\(c): \(error)")
            #expect(error.primary?.backendID == primaryKind.rawValue, "\(c)")
            #expect(error.primary?.reason.name == primaryReason, "\(c): \(error)")
            #expect(error.secondary?.reason.name == secondaryReason, "\(c): \(error)")
            if let secondaryReason { #expect(error.message.contains(secondaryReason) && error.message.contains(primaryReason)) }
            #expect(error.failure?.status == status, "\(c): \(error)")
            if case .unavailable(let reason) = c.primary, secondaryReason == nil {
                #expect(error.availabilityReason == reason, "\(c)")
            }
            #expect(session.transcript.entries.isEmpty, "a failed exchange leaves no trace")
            if streaming, case .failsAfterThirdToken = c.primary {
                #expect(snapshots.map(\.content) == ["one", "one two", "one two three"], "\(c): no fallback after output")
            }
        case (.failed(.cancelled, _, _, _), .endedEarly) where streaming:
            #expect(session.transcript.entries.isEmpty)
        case (let expected, let actual):
            Issue.record("\(c): expected \(expected), got \(actual)")
        }
        // The plugin call has ended (a hanging primary only ends when the cancellation reached it).
        let deadline = ContinuousClock.now + .seconds(2)
        while session.isResponding && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!session.isResponding, "\(c)")
    }
}
