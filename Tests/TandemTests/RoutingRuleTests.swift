import Foundation
import PluginFixtures
import Testing
@testable import Tandem

/// The routing rules (README "Routing: who answers") beyond the matrix: history on fallback,
/// options per side, unsupported requests, the widened policy, overlap and bad input.
@Suite struct RoutingRuleTests {
    /// A local side scripted without tools and guided JSON (unless `local` says otherwise) and a
    /// cloud side with both.
    func pair(
        local: [String: String] = [:], cloud: [String: String] = [:],
        mode: RoutingMode = .preferLocal, policy: FallbackPolicy = .default
    ) throws -> (HybridModel, RecordingBackend, RecordingBackend) {
        let l = try RecordingBackend(id: "local", settings: local.merging(["kind": "local", "without": "guidedJSON,tools"]) { a, _ in a })
        let c = try RecordingBackend(id: "cloud", settings: cloud.merging(["kind": "cloud"]) { a, _ in a })
        return (HybridModel(mode: mode, local: LanguageModel(l), cloud: LanguageModel(c), fallbackPolicy: policy), l, c)
    }

    @Test func secondaryReceivesTheWholeConversationOnFallback() async throws {
        let local = try RecordingBackend(id: "local", settings: ["kind": "local", "reply": "from local"])
        let cloud = try RecordingBackend(id: "cloud", settings: ["kind": "cloud", "reply": "from cloud"])
        let localModel = LanguageModel(local)
        let session = LanguageModelSession(
            model: HybridModel(mode: .preferLocal, local: localModel, cloud: LanguageModel(cloud)), instructions: "Be brief.")
        let first = try await session.respond(to: "first question")
        #expect(first.servedBy == "local")

        // Same transcript, but now a model whose local side fails before its first token.
        let failing = try RecordingBackend(id: "local", settings: ["kind": "local", "fail_at_token": "0", "error": "decoding"])
        let second = LanguageModelSession(
            model: HybridModel(mode: .preferLocal, local: LanguageModel(failing), cloud: LanguageModel(cloud)),
            instructions: "Be brief.")
        _ = try await second.respond(to: "first question")  // served by cloud
        let answer = try await second.respond(to: "second question")
        #expect(answer.servedBy == "cloud")
        #expect(answer.fallback == FallbackRecord(primaryID: "local", primaryTried: true, reason: .failed(BackendFailure(.decoding, "scripted decoding after 0 tokens"))))
        let received = try #require(cloud.received.last)
        #expect(received.messages == [
            .system("Be brief."), .user("first question"), .assistant("from cloud"), .user("second question"),
        ])
        #expect(second.transcript.entries.last == .response("from cloud", servedBy: "cloud", modelVersion: "tandem-fake-1"))
    }

    @Test func eachSideReceivesOnlyItsOwnOptions() async throws {
        let (model, local, cloud) = try pair(local: ["availability": "modelNotReady"])
        let session = LanguageModelSession(model: model)
        let options = RequestOptions.hybrid(
            cloud: GenerationConfig(temperature: 0.2, topP: 0.9, maxOutputTokens: 64),
            local: GenerationOptions(sampling: .random(top: 5, seed: 7), temperature: 0.8, maximumResponseTokens: 10))
        _ = try await session.respond(to: "hi", options: options)
        #expect(local.received.isEmpty)
        #expect(cloud.received.first?.options == BackendOptions(temperature: 0.2, topP: 0.9, maxTokens: 64))

        let (model2, local2, _) = try pair()
        _ = try await LanguageModelSession(model: model2).respond(to: "hi", options: options)
        #expect(local2.received.first?.options == BackendOptions(sampling: .topK, temperature: 0.8, topK: 5, seed: 7, maxTokens: 10))
    }

    @Test(arguments: [
        (RequestOptions.local(GenerationOptions(temperature: -1)), "local options: temperature must be >= 0"),
        (.cloud(GenerationConfig(topP: 0)), "cloud options: top-p must be in (0, 1]"),
        (.cloud(GenerationConfig(topP: 1.5)), "cloud options: top-p must be in (0, 1]"),
        (.local(GenerationOptions(maximumResponseTokens: 0)), "local options: max tokens must be >= 1"),
        (.local(GenerationOptions(sampling: .random(top: 0))), "local options: top-k must be >= 1"),
        (.hybrid(cloud: GenerationConfig(), local: GenerationOptions(temperature: .nan)), "local options: temperature"),
    ])
    func invalidOptionsFailBeforeAnyBackendIsCalled(options: RequestOptions, message: String) async throws {
        // The local side would not even serve (unavailable): the bad value still fails first.
        let (model, local, cloud) = try pair(local: ["availability": "modelNotReady"])
        let session = LanguageModelSession(model: model)
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "hi", options: options) }
        #expect(error?.code == .invalidOptions)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(local.received.isEmpty && cloud.received.isEmpty)
        #expect(!session.isResponding)
    }

    @Test(arguments: ["", "   \n\t"])
    func emptyPromptFailsBeforeAnyBackendIsCalled(prompt: String) async throws {
        let (model, local, _) = try pair()
        let session = LanguageModelSession(model: model)
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: prompt) }
        #expect(error?.code == .emptyPrompt)
        var iterator = session.streamResponse(to: prompt).makeAsyncIterator()
        await #expect(throws: TandemError.self) { try await iterator.next() }
        #expect(local.received.isEmpty)
    }

    @Test func unsupportedRequestFallsBackFromThePrimaryAndNamesWhat() async throws {
        // Local lacks tools and guided JSON; the cloud has both (and a scripted guided reply).
        let (model, local, _) = try pair(cloud: ["guided_reply": #""ok""#])
        let tools = [ToolDeclaration(name: "lookup", description: "d", parametersSchema: "{}")]
        let routed = try model.generate(
            HybridRequest(messages: [.user("hi")], tools: tools), cancellation: CancellationToken()) { _, _ in true }
        #expect(routed.decision.servedBy.id == "cloud")
        #expect(routed.decision.fallback == FallbackRecord(primaryID: "local", primaryTried: false, reason: .unsupported("tools")))

        let schema = try model.generate(
            HybridRequest(messages: [.user("hi")], responseSchema: #"{"type":"string"}"#), cancellation: CancellationToken()
        ) { _, _ in true }
        #expect(schema.decision.fallback.reason == .unsupported("response schema"))
        #expect(local.received.isEmpty)

        let single = HybridModel(mode: .localOnly, local: model.primary, cloud: model.secondary!)
        #expect {
            try single.generate(HybridRequest(messages: [.user("hi")], tools: tools), cancellation: CancellationToken()) { _, _ in true }
        } throws: { ($0 as? TandemError)?.code == .unsupportedRequest }
    }

    @Test func contextLengthIsCheckedWhenTheModelCountsTokens() throws {
        final class SmallContext: Backend {
            let inner: RecordingBackend
            init() throws { inner = try RecordingBackend(id: "local", settings: ["kind": "local"]) }
            var backendID: String { "local" }
            var info: ModelInfo {
                ModelInfo(id: "small", displayName: "small", kind: .local, capabilities: [.tokenCounting], contextLength: 4, embeddingDimensions: 0)
            }
            func availability(locale: String?) -> Availability { .available }
            func generate(_ r: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool) throws(BackendFailure) -> BackendResult {
                try inner.generate(r, cancellation: cancellation, onEvent: onEvent)
            }
            func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] { [] }
            func countTokens(_ r: BackendRequest) throws(BackendFailure) -> Int { try inner.countTokens(r) }
        }
        let model = HybridModel(
            mode: .preferLocal, local: LanguageModel(try SmallContext()),
            cloud: LanguageModel(try RecordingBackend(id: "cloud", settings: ["kind": "cloud"])))
        let short = try model.generate(HybridRequest(messages: [.user("a b")]), cancellation: CancellationToken()) { _, _ in true }
        #expect(short.decision.servedBy.id == "local")
        let long = try model.generate(HybridRequest(messages: [.user("a b c d e f")]), cancellation: CancellationToken()) { _, _ in true }
        #expect(long.decision.servedBy.id == "cloud")
        #expect(long.decision.fallback.reason?.name == "unsupportedRequest")
    }

    @Test(arguments: [BackendStatus.rateLimited, .serverError])
    func widenedPolicyFallsBackFromCloudOnMoreFailures(status: BackendStatus) async throws {
        let failing = ["fail_at_token": "0", "error": status.name]
        let (strict, _, _) = try pair(cloud: failing, mode: .preferCloud)
        await #expect(throws: TandemError.self) { try await LanguageModelSession(model: strict).respond(to: "hi") }

        let (widened, _, _) = try pair(cloud: failing, mode: .preferCloud, policy: FallbackPolicy(additionalCloudFailures: [status]))
        let response = try await LanguageModelSession(model: widened).respond(to: "hi")
        #expect(response.servedBy == "local")
        #expect(response.fallback.reason?.name == status.name)
        // Widening never covers what the policy does not name.
        let (other, _, _) = try pair(cloud: ["fail_at_token": "0", "error": "guardrail"], mode: .preferCloud,
                                 policy: FallbackPolicy(additionalCloudFailures: [status]))
        await #expect(throws: TandemError.self) { try await LanguageModelSession(model: other).respond(to: "hi") }
    }

    /// Prefer-cloud with a cloud that is unavailable for any reason but offline: an error for
    /// the caller, neither side called, unless `also_on` names that reason.
    @Test(arguments: AvailabilityReason.all.filter { $0 != .offline })
    func cloudPrimaryUnavailableIsThrownUnlessThePolicyNamesTheReason(reason: AvailabilityReason) async throws {
        let unavailable = ["availability": reason.name]
        let (strict, local, cloud) = try pair(cloud: unavailable, mode: .preferCloud)
        let error = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: strict).respond(to: "hi") }
        #expect(error?.code == .unavailable)
        #expect(error?.availabilityReason == reason)
        #expect(error?.primary == RoutingAttempt(backendID: "cloud", reason: .unavailable(reason, detail: "scripted: \(reason.name)")))
        #expect(error?.secondary == nil)
        #expect(local.received.isEmpty && cloud.received.isEmpty)

        // A policy widened by other names (an error code of the same spelling included) does not cover it.
        let other = AvailabilityReason.all.first { $0 != reason && $0 != .offline }!
        let (elsewhere, _, _) = try pair(
            cloud: unavailable, mode: .preferCloud,
            policy: FallbackPolicy(additionalCloudFailures: Set(BackendStatus.known), additionalCloudUnavailability: [other]))
        await #expect(throws: TandemError.self) { try await LanguageModelSession(model: elsewhere).respond(to: "hi") }

        let (widened, _, _) = try pair(cloud: unavailable, mode: .preferCloud, policy: FallbackPolicy(additionalCloudUnavailability: [reason]))
        let response = try await LanguageModelSession(model: widened).respond(to: "hi")
        #expect(response.servedBy == "local")
        #expect(response.fallback == FallbackRecord(primaryID: "cloud", primaryTried: false, reason: .unavailable(reason, detail: "scripted: \(reason.name)")))
    }

    /// A request the cloud primary cannot handle (a property of the request, not of the service)
    /// goes to the local side, as for a local primary, and the record says why.
    @Test func cloudPrimaryThatCannotHandleTheRequestFallsBack() async throws {
        let cloud = try RecordingBackend(id: "cloud", settings: ["kind": "cloud", "without": "guidedJSON,tools"])
        let local = try RecordingBackend(id: "local", settings: ["kind": "local", "without": "guidedJSON"])
        let model = HybridModel(mode: .preferCloud, local: LanguageModel(local), cloud: LanguageModel(cloud))
        let tools = [ToolDeclaration(name: "lookup", description: "d", parametersSchema: "{}")]
        let routed = try model.generate(HybridRequest(messages: [.user("hi")], tools: tools), cancellation: CancellationToken()) { _, _ in true }
        #expect(routed.decision.servedBy.id == "local")
        #expect(routed.decision.fallback == FallbackRecord(primaryID: "cloud", primaryTried: false, reason: .unsupported("tools")))
        #expect(cloud.received.isEmpty)
    }

    @Test func overlappingRequestFailsWithConcurrentRequests() async throws {
        let (model, _, _) = try pair(local: ["hang": "true"])
        let session = LanguageModelSession(model: model)
        let first = Task { try await session.respond(to: "first") }
        while !session.isResponding { try await Task.sleep(for: .milliseconds(2)) }
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "second") }
        #expect(error?.code == .concurrentRequests)
        var iterator = session.streamResponse(to: "third").makeAsyncIterator()
        await #expect(throws: TandemError.self) { try await iterator.next() }
        first.cancel()
        let firstError = await #expect(throws: TandemError.self) { try await first.value }
        #expect(firstError?.code == .cancelled)
        #expect(!session.isResponding)
        // The session is usable again afterwards (the hanging side is gone from this model).
        let (fresh, _, _) = try pair()
        #expect(try await LanguageModelSession(model: fresh).respond(to: "again").content == "again")
    }

    @Test func stoppingAStreamEarlyEndsThePluginCallAndFreesTheSession() async throws {
        let (model, _, _) = try pair(local: ["token_delay_ms": "5"])
        let session = LanguageModelSession(model: model)
        for try await snapshot in session.streamResponse(to: "a b c d e f g h") {
            if snapshot.content == "a b" { break }
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while session.isResponding && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!session.isResponding)
    }

    @Test func sessionOnOneModelServesOrNamesTheReason() async throws {
        let ready = LanguageModel(try RecordingBackend(id: "local", settings: ["kind": "local"]))
        let answer = try await LanguageModelSession(model: ready).respond(to: "just me")
        #expect(answer.servedBy == "local" && answer.fallback == FallbackRecord(primaryID: "local", primaryTried: true, reason: nil))

        let loading = LanguageModel(try RecordingBackend(id: "local", settings: ["kind": "local", "availability": "modelNotReady"]))
        let error = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: loading).respond(to: "hi") }
        #expect(error?.code == .unavailable)
        #expect(error?.availabilityReason == .modelNotReady)
        #expect(error?.secondary == nil)
    }

    @Test func thinkingOnAModelThatCannotThinkIsUnsupported() async throws {
        let cloud = try RecordingBackend(id: "cloud", settings: ["kind": "cloud", "without": "guidedJSON,tools"])
        let local = try RecordingBackend(id: "local", settings: ["kind": "local"])
        let model = HybridModel(mode: .preferCloud, local: LanguageModel(local), cloud: LanguageModel(cloud))
        let options = RequestOptions.cloud(GenerationConfig(thinkingConfig: ThinkingConfig(thinkingLevel: .high)))
        let response = try await LanguageModelSession(model: model).respond(to: "think hard", options: options)
        #expect(response.servedBy == "local")
        #expect(response.fallback.reason == .unsupported("thinking"))
        #expect(cloud.received.isEmpty)
        #expect(local.received.first?.options == BackendOptions(), "the local side gets only its own (absent) options")
    }
}
