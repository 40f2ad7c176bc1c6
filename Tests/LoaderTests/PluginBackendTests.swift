import Dispatch
import Glibc
import Synchronization
import Tandem
import Testing

/// `PluginBackend`: Swift values in, the C ABI across, checked Swift values back.
@Suite struct PluginBackendTests {
    @Test func theCPluginAnswersThroughTheBackend() throws {
        let echo = try ShippedPlugins.echo(["prefix": "You said: "])
        #expect(echo.backendID == "echo")
        #expect(echo.plugin.id == "tandem.echo-c")
        #expect(echo.info == ModelInfo(
            id: "echo-c", displayName: "Echo (plain C example)", kind: .test,
            capabilities: [.streaming, .embeddings, .tokenCounting, .deterministic], contextLength: 4096, embeddingDimensions: 16))
        let run = Generation(echo, .user("ein schöner Tag"))
        #expect(run.texts == ["You", " said:", " ein", " schöner", " Tag"])
        #expect(run.finished == BackendResult(finish: .stop, modelVersion: "echo-c-1.0.0", usage: Usage(promptTokens: 3, outputTokens: 5)))
        #expect(echo.availability(locale: "ja") == .available)
        #expect(try echo.countTokens(.user("one two three")) == 3)
    }

    @Test func embeddingsArriveOneRowPerText() throws {
        let echo = try ShippedPlugins.echo()
        let rows = try echo.embed(["a", "b", "a"], cancellation: CancellationToken())
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.count == 16 })
        #expect(rows[0] == rows[2])
        #expect(try echo.embed([], cancellation: CancellationToken()).isEmpty)
    }

    @Test func invalidOptionsFailBeforeThePluginIsCalled() throws {
        let fake = try ShippedPlugins.fake(["hang": "true"])  // would block if it were called
        for options in [BackendOptions(temperature: -1), BackendOptions(topP: 0), BackendOptions(maxTokens: 0), BackendOptions(stopSequences: [""])] {
            let run = Generation(fake, .user("x", options: options))
            #expect(run.failure?.status == .invalidArgument)
        }
        #expect(Generation(fake, BackendRequest(messages: [])).failure?.status == .invalidArgument)
    }

    /// The ABI promises plugins no overlap: the backend refuses the second call itself.
    @Test func anOverlappingCallIsRefusedByTheHost() throws {
        let fake = try ShippedPlugins.fake(["hang": "true"])
        let token = CancellationToken()
        let first = Mutex<BackendFailure?>(nil)
        let done = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started.signal()
            first.withLock { $0 = Generation(fake, .user("x"), cancellation: token).failure }
            done.signal()
        }
        started.wait()
        // Until the first call is inside the plugin, a second one may still get in; retry briefly.
        var refused: BackendFailure?
        for _ in 0..<200 {
            refused = Generation(try ShippedPlugins.fake(), .user("x")).failure  // another model: never refused
            #expect(refused == nil)
            refused = Generation(fake, .user("y"), cancellation: CancellationToken()).failure
            if refused?.status == .concurrentRequests { break }
            usleep(1000)
        }
        #expect(refused?.status == .concurrentRequests)
        token.cancel()
        done.wait()
        #expect(first.withLock { $0?.status } == .cancelled)
    }

    @Test func swiftCancellationReachesTheWaitingPlugin() throws {
        let fake = try ShippedPlugins.fake(["hang": "true"])
        let token = CancellationToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { token.cancel() }
        let run = Generation(fake, .user("x"), cancellation: token)
        #expect(run.failure?.status == .cancelled)
        #expect(run.failure?.message.contains("cancelled while hanging") == true)
    }

    @Test func failuresKeepTheirStructuredDetails() throws {
        let fake = try ShippedPlugins.fake(["context_length": "3"])
        let failure = Generation(fake, .user("one two three four")).failure
        #expect(failure?.status == .exceededContextWindowSize)
        #expect(failure?.contextLimit == 3)
        #expect(failure?.contextRequested == 4)
    }

    @Test func openingFailuresNameThePlugin() throws {
        #expect {
            try ShippedPlugins.echo(["colour": "blue"])
        } throws: { error in
            (error as? BackendFailure)?.message == "tandem.echo-c: unknown setting \"colour\" (the echo model accepts: prefix)"
        }
    }
}
