import Foundation
import Testing
@testable import Tandem

/// The routing matrix of README "Routing: who answers": every mode × every primary state
/// (available, each availability reason, a failure before the first token with each error code, a
/// failure after output, cancellation) × secondary available or not × the default or a widened
/// fallback policy → who serves and the fallback record, or which error reaches the caller. The
/// table is generated (`RoutingMatrix.cases`) and its expectations come from the rules written once
/// (`RoutingMatrix.expectation`); each row runs with `respond` and with `streamResponse` through
/// the real loader, both sides being the `tandem.fake` plugin (`kind` local and cloud).
@Suite struct RoutingMatrixTests {
    @Test(arguments: RoutingMatrix.cases)
    func respondMatrix(_ matrixCase: RoutingMatrix.Case) async throws {
        try await RoutingMatrix.check(matrixCase, factory: .fakePlugin, streaming: false)
    }

    @Test(arguments: RoutingMatrix.cases)
    func streamMatrix(_ matrixCase: RoutingMatrix.Case) async throws {
        try await RoutingMatrix.check(matrixCase, factory: .fakePlugin, streaming: true)
    }

    @Test func matrixCoversEveryModeReasonErrorCodeSecondaryAndPolicy() {
        // Every ABI error code a backend can fail with (not `ok`, not the size protocol's
        // `bufferTooSmall`), every availability reason.
        #expect(Set(RoutingMatrix.PrimaryState.errorClasses) == Set(BackendStatus.known).subtracting([.ok, .bufferTooSmall]))
        #expect(RoutingMatrix.PrimaryState.errorClasses.count == 24)
        let states = 1 + AvailabilityReason.all.count + RoutingMatrix.PrimaryState.errorClasses.count + 2
        #expect(RoutingMatrix.cases.count == RoutingMode.allCases.count * states * 2 * RoutingMatrix.Policy.allCases.count)
        #expect(RoutingMatrix.cases.count == 4 * 35 * 2 * 2)
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

        static let errorClasses: [BackendStatus] = BackendStatus.known.filter { $0 != .ok && $0 != .bufferTooSmall }
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

    /// The fallback policy of the row: the README's default, or one widened as `fallback.also_on`
    /// `["notConfigured", "modelNotReady", "rateLimited", "serverError"]` widens it (`rateLimited`
    /// names a reason and a code, and widens both).
    enum Policy: String, CaseIterable, Sendable {
        case standard, widened

        var fallbackPolicy: FallbackPolicy {
            switch self {
            case .standard: .default
            case .widened:
                FallbackPolicy(
                    additionalCloudFailures: [.rateLimited, .serverError], additionalCloudUnavailability: [.notConfigured, .modelNotReady, .rateLimited])
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var mode: RoutingMode
        var primary: PrimaryState
        var secondaryAvailable: Bool
        var policy: Policy
        var description: String {
            "\(mode) primary=\(primary) secondary=\(secondaryAvailable ? "available" : "unavailable") policy=\(policy)"
        }
    }

    static let cases: [Case] = RoutingMode.allCases.flatMap { mode in
        PrimaryState.all.flatMap { state in
            [true, false].flatMap { secondary in
                Policy.allCases.map { Case(mode: mode, primary: state, secondaryAvailable: secondary, policy: $0) }
            }
        }
    }

    /// The reason an unavailable secondary gives: what each side typically reports.
    static func unavailableSecondaryReason(kind: ModelKind) -> AvailabilityReason { kind == .local ? .modelNotReady : .offline }

    enum Expectation: Equatable {
        /// Served; by the secondary when `reason` is set (the primary's reason).
        case served(bySecondary: Bool, primaryTried: Bool, reason: String?)
        case failed(TandemError.Code, primaryReason: String, secondaryReason: String?, failureStatus: BackendStatus?)
    }

    /// The routing rules (README "Routing: who answers") as a table: what must happen in each case.
    static func expectation(_ c: Case) -> Expectation {
        let hasSecondary = c.mode.secondaryKind != nil
        let cloudPrimary = c.mode.primaryKind == .cloud
        let policy = c.policy.fallbackPolicy
        let secondaryReason = c.mode.secondaryKind.map { unavailableSecondaryReason(kind: $0).name }
        /// The code of an error carrying a backend failure.
        func code(_ status: BackendStatus) -> TandemError.Code {
            status == .cancelled ? .cancelled : status == .timeout ? .timeout : .backendFailure
        }
        /// The primary did not serve for `reason`, and the rules let the secondary take over.
        func handOver(primaryTried: Bool, reason: String, failure: BackendStatus?) -> Expectation {
            guard hasSecondary else {
                return failure.map { .failed(code($0), primaryReason: reason, secondaryReason: nil, failureStatus: $0) }
                    ?? .failed(.unavailable, primaryReason: reason, secondaryReason: nil, failureStatus: nil)
            }
            return c.secondaryAvailable
                ? .served(bySecondary: true, primaryTried: primaryTried, reason: reason)
                : .failed(.unavailable, primaryReason: reason, secondaryReason: secondaryReason, failureStatus: nil)
        }
        switch c.primary {
        case .available:
            return .served(bySecondary: false, primaryTried: true, reason: nil)
        case .unavailable(let reason):
            // A cloud primary that is anything but offline (or a reason the policy adds) is an
            // error for the caller: a missing key must not silently become a local answer.
            if cloudPrimary && reason != .offline && !policy.additionalCloudUnavailability.contains(reason) {
                return .failed(.unavailable, primaryReason: reason.name, secondaryReason: nil, failureStatus: nil)
            }
            return handOver(primaryTried: false, reason: reason.name, failure: nil)
        case .failsBeforeFirstToken(let status):
            // Cancellation never falls back; a local primary falls back on any other failure; a
            // cloud primary only when offline (or on a code the policy adds).
            if status == .cancelled
                || (cloudPrimary && status != .offline && !policy.additionalCloudFailures.contains(status))
            {
                return .failed(code(status), primaryReason: status.name, secondaryReason: nil, failureStatus: status)
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
        let policy = c.policy.fallbackPolicy
        let model = primaryKind == .local
            ? HybridModel(mode: c.mode, local: primary, cloud: other, fallbackPolicy: policy)
            : HybridModel(mode: c.mode, local: other, cloud: primary, fallbackPolicy: policy)
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
            // A cancellation may land before the primary was even called (a loaded machine).
            if !(code == .cancelled && error.primary == nil) {
                #expect(error.primary?.backendID == primaryKind.rawValue, "\(c)")
                #expect(error.primary?.reason.name == primaryReason, "\(c): \(error)")
            }
            #expect(error.secondary?.reason.name == secondaryReason, "\(c): \(error)")
            if let secondaryReason { #expect(error.message.contains(secondaryReason) && error.message.contains(primaryReason)) }
            if error.primary != nil { #expect(error.failure?.status == status, "\(c): \(error)") }
            if case .unavailable(let reason) = c.primary, secondaryReason == nil {
                #expect(error.availabilityReason == reason, "\(c)")
                if c.mode == .preferCloud {
                    #expect(error.message.contains("falls back to local only when offline (fallback.also_on widens it)"), "\(c): \(error)")
                }
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
