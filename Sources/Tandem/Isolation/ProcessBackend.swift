import CTandemABI
import Glibc
import Synchronization

/// A `Backend` whose plugin runs in a `tandem-plugin-host` child process (`"isolation":
/// "process"`, the default): the plugin can crash, hang or corrupt its memory and the host lives
/// on. Calls cross the sockets of Isolation/README.md; events are read on the calling thread.
///
/// A child that dies, sends garbage, or does not finish within `stopBound` after its call was
/// cancelled or stopped is killed, and the call fails with `backendCrashed` naming how it ended
/// and its last stderr line. The next call starts a new child; after repeated crashes in a row,
/// only once a backoff has passed (and until then the backend reports itself not ready).
///
/// - Note: Thread-safe. Calls that would overlap on a model without `.concurrentCalls` fail with
///   `concurrentRequests`, as in-process; a model with it runs up to `Wire.callChannels` calls
///   at once.
public final class ProcessBackend: Backend, Sendable {
    public let backendID: String
    public let info: ModelInfo
    /// The child's model offers `tandem.token_embeddings/1` (it says so when ready).
    public let offersTokenEmbeddings: Bool
    /// The child's model offers `tandem.log_likelihood/1` (it says so when ready).
    public let offersLogLikelihood: Bool
    public let plugin: PluginIdentity
    private let settings: [String: String]
    private let configDirectory: String?
    /// The child's executable (`ChildProcess.executable` unless a test substitutes one).
    private let executable: String

    /// How long a child may take to end a call after it was cancelled or stopped.
    static let stopBound: Duration = .seconds(3)
    /// How long a child may take to answer an availability check.
    static let availabilityBound: Duration = .seconds(10)
    /// The longest wait before a restart after crashes in a row.
    static let maximumBackoff: Duration = .seconds(60)

    private struct State {
        var child: ChildProcess?
        var busy = [Bool](repeating: false, count: Wire.callChannels)
        var crashes = 0
        var crashesInARow = 0
        var lastCrash: String?
        var lastCrashAt: ContinuousClock.Instant?
    }
    private let state: Mutex<State>
    /// Serialises the query channel's request-answer pairs and the control channel's writes.
    private let queryLock = Mutex(())
    private let controlLock = Mutex(())
    private let nextCall = Atomic<UInt64>(1)

    /// What `tandem backends` shows of an isolated backend.
    public struct Health: Sendable {
        public let running: Bool
        public let crashes: Int
        /// How the last child ended, with its last stderr line.
        public let lastCrash: String?
        /// Time left before the next restart is allowed, when backing off.
        public let backoff: Duration?
    }

    public var health: Health {
        state.withLock { state in
            Health(running: state.child != nil, crashes: state.crashes, lastCrash: state.lastCrash,
                   backoff: Self.backoffRemaining(state))
        }
    }

    /// A child started and told to open the model; `open()` waits for its answer, so that
    /// several backends load at the same time.
    struct Launch {
        let backendID: String
        let plugin: PluginIdentity
        let settings: [String: String]
        let configDirectory: String?
        let executable: String
        let child: Result<ChildProcess, BackendFailure>

        func open() throws(BackendFailure) -> ProcessBackend {
            let child = try child.get()
            let ready = try ProcessBackend.awaitReady(child, label: "\(backendID) (\(plugin.id))")
            return ProcessBackend(backendID: backendID, ready: ready, plugin: plugin, settings: settings,
                                  configDirectory: configDirectory, executable: executable, child: child)
        }
    }

    /// Starts the child for `plugin` (found by a probe of the plugins folder).
    static func launch(
        backendID: String, plugin: PluginIdentity, settings: [String: String], configDirectory: String?,
        executable: String = ChildProcess.executable
    ) -> Launch {
        Launch(backendID: backendID, plugin: plugin, settings: settings, configDirectory: configDirectory, executable: executable,
               child: Result { () throws(BackendFailure) in
                   try startChild(backendID: backendID, plugin: plugin, settings: settings, configDirectory: configDirectory, executable: executable)
               })
    }

    /// Opens `plugin`'s model in a new child and waits until it is ready.
    public static func open(
        backendID: String, plugin: PluginIdentity, settings: [String: String] = [:], configDirectory: String? = nil
    ) throws(BackendFailure) -> ProcessBackend {
        try launch(backendID: backendID, plugin: plugin, settings: settings, configDirectory: configDirectory).open()
    }

    private init(
        backendID: String, ready: Ready, plugin: PluginIdentity, settings: [String: String],
        configDirectory: String?, executable: String, child: ChildProcess
    ) {
        self.backendID = backendID
        self.executable = executable
        info = ready.info
        offersTokenEmbeddings = ready.offersTokenEmbeddings
        offersLogLikelihood = ready.offersLogLikelihood
        self.plugin = plugin
        self.settings = settings
        self.configDirectory = configDirectory
        self.state = Mutex(State(child: child))
    }

    private var label: String { "\(backendID) (\(plugin.id))" }

    // MARK: Children

    private static func startChild(
        backendID: String, plugin: PluginIdentity, settings: [String: String], configDirectory: String?, executable: String
    ) throws(BackendFailure) -> ChildProcess {
        let child = try ChildProcess(
            executable: executable, arguments: ["serve"], socketCount: Wire.socketCount, label: "\(backendID) (\(plugin.id))")
        var open = WireWriter(.open)
        open.string(plugin.path)
        open.optional(configDirectory) { w, folder in w.string(folder) }
        open.string(backendID)
        open.array(settings.sorted { $0.key < $1.key }) { w, pair in
            w.string(pair.key)
            w.string(pair.value)
        }
        child.sockets[callSocket(0)].send(open.finish())
        return child
    }

    /// What a child says once its model is open.
    struct Ready: Equatable {
        let info: ModelInfo
        let offersTokenEmbeddings: Bool
        let offersLogLikelihood: Bool
    }

    private static func awaitReady(_ child: ChildProcess, label: String) throws(BackendFailure) -> Ready {
        enum Answer { case ready(Ready), failed(BackendFailure), gone }
        let answer: Answer
        do throws(Wire.ProtocolError) {
            switch try child.sockets[callSocket(0)].receive() {
            case .frame(var frame) where frame.kind == .ready:
                answer = .ready(Ready(info: try frame.info(), offersTokenEmbeddings: try frame.bool("token embeddings offered"),
                                      offersLogLikelihood: try frame.bool("log-likelihood offered")))
                try frame.end()
            case .frame(var frame) where frame.kind == .failure:
                answer = .failed(try frame.failure())
                try frame.end()
            case .frame(let frame):
                throw Wire.ProtocolError("a \(frame.kind) frame instead of the model's info")
            case .closed, .timedOut:
                answer = .gone
            }
        } catch {
            throw BackendFailure(.backendCrashed, "\(label): the plugin's process sent a malformed frame while opening the model (\(error)) and \(child.end(killing: true))")
        }
        switch answer {
        case .ready(let ready):
            return ready
        case .failed(let failure):
            _ = child.end(killing: false)
            throw failure
        case .gone:
            throw BackendFailure(.backendCrashed, "\(label): the plugin's process ended while opening the model and \(child.end(killing: false))")
        }
    }

    private static func callSocket(_ channel: Int) -> Int { 2 + channel }

    private static func backoff(afterCrashesInARow count: Int) -> Duration {
        guard count >= 2 else { return .zero }
        return min(.seconds(1 << min(count - 2, 16)), maximumBackoff)
    }

    private static func backoffRemaining(_ state: State) -> Duration? {
        guard state.child == nil, let at = state.lastCrashAt else { return nil }
        let remaining = backoff(afterCrashesInARow: state.crashesInARow) - (ContinuousClock.now - at)
        return remaining > .zero ? remaining : nil
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value < 10 ? String(format: "%.1f s", value) : "\(Int(value.rounded())) s"
    }

    /// The running child and a free call channel, restarting the child when it crashed.
    private func acquire() throws(BackendFailure) -> (ChildProcess, Int) {
        try state.withLock { state throws(BackendFailure) -> (ChildProcess, Int) in
            let channel: Int
            if info.capabilities.contains(.concurrentCalls) {
                guard let free = state.busy.firstIndex(of: false) else {
                    throw BackendFailure(.concurrentRequests, "\(label) is already running \(Wire.callChannels) requests, the most an isolated backend runs at once")
                }
                channel = free
            } else {
                guard !state.busy[0] else { throw BackendFailure(.concurrentRequests, "\(label) is already running a request") }
                channel = 0
            }
            let child: ChildProcess
            if let running = state.child {
                child = running
            } else {
                if let wait = Self.backoffRemaining(state) {
                    throw BackendFailure(.backendCrashed, "\(label): the plugin's process crashed \(state.crashesInARow) times in a row (last: it \(state.lastCrash ?? "ended")); backing off, the next restart in \(Self.seconds(wait))")
                }
                do throws(BackendFailure) {
                    let started = try Self.startChild(
                        backendID: backendID, plugin: plugin, settings: settings, configDirectory: configDirectory, executable: executable)
                    let ready = try Self.awaitReady(started, label: label)
                    let reopened = ready.info
                    guard reopened.id == info.id, ready.offersTokenEmbeddings == offersTokenEmbeddings, ready.offersLogLikelihood == offersLogLikelihood,
                          reopened.kind == info.kind, reopened.capabilities == info.capabilities else {
                        throw BackendFailure(.initFailed, "\(label): the restarted plugin opened another model (\(reopened.id), \(reopened.kind)) than before (\(info.id), \(info.kind))")
                    }
                    child = started
                } catch {
                    Self.recordCrash(&state, error.message)
                    throw BackendFailure(error.status, "\(error.message) (restarting after a crash)")
                }
                state.child = child
            }
            state.busy[channel] = true
            return (child, channel)
        }
    }

    private func release(_ channel: Int, succeeded: Bool) {
        state.withLock { state in
            state.busy[channel] = false
            if succeeded { state.crashesInARow = 0 }
        }
    }

    private static func recordCrash(_ state: inout State, _ reason: String) {
        state.crashes += 1
        state.crashesInARow += 1
        state.lastCrash = reason
        state.lastCrashAt = .now
    }

    /// Ends `child` (killing it unless it already ended by itself) and records the crash once,
    /// however many calls saw it.
    private func crashed(_ child: ChildProcess, killing: Bool, _ what: String) -> BackendFailure {
        let ending = child.end(killing: killing)
        state.withLock { state in
            guard state.child === child else { return }
            state.child = nil
            Self.recordCrash(&state, ending)
        }
        return BackendFailure(.backendCrashed, "\(label): the plugin's process \(what) and \(ending); a new one starts on the next request")
    }

    private func sendControl(_ kind: Wire.Kind, child: ChildProcess, channel: Int, call: UInt64) {
        var writer = WireWriter(kind)
        writer.u8(UInt8(channel))
        writer.u64(call)
        let frame = writer.finish()
        controlLock.withLock { _ in _ = child.sockets[0].send(frame) }
    }

    // MARK: Availability

    public func availability(locale: String?) -> Availability {
        enum Known { case running(ChildProcess), answer(Availability) }
        let known = state.withLock { state -> Known in
            if let running = state.child { return .running(running) }
            if let wait = Self.backoffRemaining(state) {
                return .answer(.unavailable(.modelNotReady, detail: "\(label): the plugin's process crashed \(state.crashesInARow) times in a row (last: it \(state.lastCrash ?? "ended")); restarting in \(Self.seconds(wait))"))
            }
            // Not running but free to restart: the next call starts it (a check is too cheap to).
            return .answer(.available)
        }
        let child: ChildProcess
        switch known {
        case .running(let running): child = running
        case .answer(let answer): return answer
        }
        var query = WireWriter(.availability)
        query.optional(locale) { w, text in w.string(text) }
        let frame = query.finish()
        let deadline = ContinuousClock.now + Self.availabilityBound
        let outcome = queryLock.withLock { _ -> Result<Availability, BackendFailure> in
            let socket = child.sockets[1]
            guard socket.send(frame) else { return .failure(crashed(child, killing: false, "was gone at an availability check")) }
            do throws(Wire.ProtocolError) {
                while true {
                    switch try socket.receive(timeoutMilliseconds: 100) {
                    case .frame(var answer):
                        guard answer.kind == .availabilityAnswer else { throw Wire.ProtocolError("a \(answer.kind) frame for an availability check") }
                        let availability = try answer.availability()
                        try answer.end()
                        return .success(availability)
                    case .closed:
                        return .failure(crashed(child, killing: false, "ended during an availability check"))
                    case .timedOut:
                        if ContinuousClock.now >= deadline {
                            return .failure(crashed(child, killing: true, "did not answer an availability check within \(Self.seconds(Self.availabilityBound))"))
                        }
                    }
                }
            } catch {
                return .failure(crashed(child, killing: true, "sent a malformed frame (\(error))"))
            }
        }
        switch outcome {
        case .success(let availability): return availability
        case .failure(let failure): return .unavailable(.unknown, detail: failure.message)
        }
    }

    // MARK: Calls

    public func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        if let problem = request.options.validationProblem() { throw BackendFailure(.invalidArgument, problem) }
        guard !request.messages.isEmpty else { throw BackendFailure(.invalidArgument, "the request has no messages") }
        var writer = WireWriter(.generate, capacity: 256)
        return try call(&writer, "generate", cancellation: cancellation, encode: { $0.request(request) }) { frame throws(BackendFailure) in
            switch frame.kind {
            case .event:
                let event = try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.event() }
                return .event(continuing: onEvent(event))
            case .result:
                return .value(try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.result() })
            default:
                throw Self.unexpected(frame)
            }
        }
    }

    public func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        guard info.capabilities.contains(.embeddings) else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not compute embeddings")
        }
        guard !texts.isEmpty else { return [] }
        var writer = WireWriter(.embed, capacity: 64 + texts.reduce(0) { $0 + $1.utf8.count + 4 })
        return try call(&writer, "embed", cancellation: cancellation, encode: { w in w.array(texts) { w, text in w.string(text) } }) { frame throws(BackendFailure) in
            guard frame.kind == .embeddings else { throw Self.unexpected(frame) }
            return .value(try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) -> [[Float]] in
                let rows = Int(try r.u32("rows")), width = Int(try r.u32("dimensions"))
                guard rows == texts.count else { throw Wire.ProtocolError("\(rows) vectors for \(texts.count) texts") }
                guard rows * width * 4 == r.remaining else {
                    throw Wire.ProtocolError("\(rows) vectors of \(width) dimensions in \(r.remaining) bytes")
                }
                return try (0..<rows).map { _ throws(Wire.ProtocolError) in
                    try (0..<width).map { _ throws(Wire.ProtocolError) in try r.f32("vector") }
                }
            })
        }
    }

    public func tokenEmbeddings(_ text: String, cancellation: CancellationToken) throws(BackendFailure) -> TokenEmbeddings {
        guard offersTokenEmbeddings else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not give per-token states (\(TANDEM_EXT_TOKEN_EMBEDDINGS))")
        }
        var writer = WireWriter(.tokenEmbed, capacity: 16 + text.utf8.count)
        return try call(&writer, "token_embeddings", cancellation: cancellation, encode: { w in w.string(text) }) { frame throws(BackendFailure) in
            guard frame.kind == .tokenEmbeddings else { throw Self.unexpected(frame) }
            return .value(try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) -> TokenEmbeddings in
                let count = Int(try r.u32("tokens")), width = Int(try r.u32("dimensions"))
                guard width == info.embeddingDimensions, count * (width + 1) * 4 == r.remaining else {
                    throw Wire.ProtocolError("\(count) token states of \(width) dimensions in \(r.remaining) bytes (the model's width is \(info.embeddingDimensions))")
                }
                var ids: [Int32] = [], states: [[Float]] = []
                for _ in 0..<count {
                    ids.append(try r.i32("token id"))
                    states.append(try (0..<width).map { _ throws(Wire.ProtocolError) in try r.f32("state") })
                }
                return TokenEmbeddings(ids: ids, states: states)
            })
        }
    }

    public func logLikelihood(of continuation: String, after context: String, cancellation: CancellationToken) throws(BackendFailure) -> LogLikelihood {
        guard offersLogLikelihood else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not score text (\(TANDEM_EXT_LOG_LIKELIHOOD))")
        }
        guard !continuation.isEmpty else { throw BackendFailure(.invalidArgument, "the continuation to score is empty") }
        var writer = WireWriter(.scoreText, capacity: 32 + context.utf8.count + continuation.utf8.count)
        return try call(&writer, "log_likelihood", cancellation: cancellation, encode: { w in
            w.string(context)
            w.string(continuation)
        }) { frame throws(BackendFailure) in
            guard frame.kind == .logLikelihood else { throw Self.unexpected(frame) }
            let (value, tokens) = try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) in
                (try r.f64("log-likelihood"), Int(try r.u32("tokens")))
            }
            return .value(try LogLikelihood.checked(value: value, tokens: tokens, from: label))
        }
    }

    public func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        guard info.capabilities.contains(.tokenCounting) else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not count tokens")
        }
        var writer = WireWriter(.countTokens, capacity: 256)
        return try call(&writer, "count_tokens", cancellation: CancellationToken(), encode: { $0.request(request) }) { frame throws(BackendFailure) in
            guard frame.kind == .tokenCount else { throw Self.unexpected(frame) }
            return .value(try Self.decode(&frame) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.int("token count") })
        }
    }

    /// What a frame of a call meant: its final value, or a streamed event (the consumer's answer).
    private enum Step<T> {
        case value(T)
        case event(continuing: Bool)
    }

    private static func decode<T>(_ frame: inout WireReader, _ read: (inout WireReader) throws(Wire.ProtocolError) -> T) throws(BackendFailure) -> T {
        do throws(Wire.ProtocolError) {
            let value = try read(&frame)
            try frame.end()
            return value
        } catch {
            throw garbageMarker(error)
        }
    }

    private static func unexpected(_ frame: WireReader) -> BackendFailure {
        garbageMarker(Wire.ProtocolError("an unexpected \(frame.kind) frame"))
    }

    /// A decoding problem travels as a failure with this status until `call` turns it into the
    /// child's crash (a child that sends garbage is killed: its state is unknown).
    private static let garbageStatus = BackendStatus(rawValue: Int32.min)
    private static func garbageMarker(_ problem: Wire.ProtocolError) -> BackendFailure {
        BackendFailure(garbageStatus, problem.description)
    }

    /// Sends one call frame (`writer` with the call id and what `encode` adds) on a free channel
    /// and reads frames until `handle` gives the call's value or the child answers with a
    /// failure. Each streamed event is answered with a `flow` frame: stop, and whether the
    /// token is cancelled.
    private func call<T>(
        _ writer: inout WireWriter, _ what: String, cancellation: CancellationToken, encode: (inout WireWriter) -> Void,
        handle: (inout WireReader) throws(BackendFailure) -> Step<T>
    ) throws(BackendFailure) -> T {
        let (child, channel) = try acquire()
        var succeeded = false
        defer { release(channel, succeeded: succeeded) }
        let id = nextCall.wrappingAdd(1, ordering: .relaxed).oldValue
        writer.u64(id)
        encode(&writer)
        let socket = child.sockets[Self.callSocket(channel)]
        guard socket.send(writer.finish()) else { throw crashed(child, killing: false, "was gone when \(what) was sent") }

        // After a stop or a cancel, the child has `stopBound` to end the call.
        var stopDeadline: ContinuousClock.Instant?
        let waker = cancellation.addWaker { [self] in sendControl(.cancel, child: child, channel: channel, call: id) }
        defer { if let waker { cancellation.removeWaker(waker) } }
        while true {
            let received: WireSocket.Received
            do throws(Wire.ProtocolError) {
                received = try socket.receive(timeoutMilliseconds: 100)
            } catch {
                throw crashed(child, killing: true, "sent a malformed frame during \(what) (\(error))")
            }
            switch received {
            case .closed:
                throw crashed(child, killing: false, "ended during \(what)")
            case .timedOut:
                if stopDeadline == nil, cancellation.isCancelled { stopDeadline = .now + Self.stopBound }
                if let deadline = stopDeadline, ContinuousClock.now >= deadline {
                    throw crashed(child, killing: true, "did not end \(what) within \(Self.seconds(Self.stopBound)) of being cancelled or stopped")
                }
            case .frame(var frame):
                if frame.kind == .failure {
                    let failure: BackendFailure
                    do throws(Wire.ProtocolError) {
                        failure = try frame.failure()
                        try frame.end()
                    } catch {
                        throw crashed(child, killing: true, "sent a malformed frame during \(what) (\(error))")
                    }
                    succeeded = true
                    throw failure
                }
                let step: Step<T>
                do throws(BackendFailure) {
                    step = try handle(&frame)
                } catch where error.status == Self.garbageStatus {
                    throw crashed(child, killing: true, "sent a malformed frame during \(what) (\(error.message))")
                }
                switch step {
                case .value(let value):
                    succeeded = true
                    return value
                case .event(let continuing):
                    let cancelled = cancellation.isCancelled
                    var flow = WireWriter(.flow)
                    flow.u8((continuing ? 0 : Wire.flowStop) | (cancelled ? Wire.flowCancelled : 0))
                    guard socket.send(flow.finish()) else { throw crashed(child, killing: false, "was gone during \(what)") }
                    if stopDeadline == nil, !continuing || cancelled { stopDeadline = .now + Self.stopBound }
                }
            }
        }
    }
}
