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
        let fake = try ShippedPlugins.fake()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let first = Mutex<Generation?>(nil)
        onOwnThread {
            // The first call holds still inside its first event until the second was tried.
            var signalled = false
            let run = Generation(fake, .user("one two")) { _ in
                if !signalled {
                    signalled = true
                    inside.signal()
                    release.wait()
                }
            }
            first.withLock { $0 = run }
            done.signal()
        }
        inside.wait()
        #expect(Generation(fake, .user("y")).failure?.status == .concurrentRequests)
        #expect(Generation(try ShippedPlugins.fake(), .user("x")).failure == nil)  // another model is free
        release.signal()
        done.wait()
        #expect(first.withLock { $0?.text } == "one two")
        #expect(Generation(fake, .user("again")).text == "again")  // free once the first returned
    }

    @Test func swiftCancellationReachesTheWaitingPlugin() throws {
        let fake = try ShippedPlugins.fake(["hang": "true"])
        let token = CancellationToken()
        onOwnThread(after: .milliseconds(20)) { token.cancel() }
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
