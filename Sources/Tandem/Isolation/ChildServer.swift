import Foundation
import Glibc
import Synchronization

/// The child side of isolation: what `tandem-plugin-host` runs (Isolation/README.md).
///
/// `serve`: loads one plugin file with the host's loader checks, opens the model the first
/// frame describes, and answers calls until the host closes the sockets. `probe`: loads a
/// plugins folder and reports what it holds, naming each file before entering it.
public enum ChildServer {
    public static func main(_ arguments: [String]) -> Never {
        switch arguments.dropFirst().first {
        case "serve":
            closeInheritedDescriptors(from: Wire.controlFD + Int32(Wire.socketCount))
            serve()
        case "probe":
            closeInheritedDescriptors(from: Wire.controlFD + 1)
            probe()
        default:
            complain("usage: tandem-plugin-host serve|probe (started by the tandem host, not by hand)\n")
            exit(2)
        }
    }

    /// Whatever the host had open besides our sockets (files, other children's sockets) is not ours.
    private static func closeInheritedDescriptors(from first: Int32) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in names.compactMap(Int32.init) where fd >= first { close(fd) }
    }

    /// For the host's crash report, which quotes the child's last stderr line.
    private static func complain(_ line: String) {
        var line = line
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The host closed a socket: it released the backend or it died. Nothing left to serve.
    private static func hostGone() -> Never { _exit(0) }

    private static func receive(_ socket: WireSocket) -> WireReader {
        do throws(Wire.ProtocolError) {
            guard case .frame(let frame) = try socket.receive() else { hostGone() }
            return frame
        } catch {
            complain("tandem-plugin-host: a malformed frame from the host: \(error)\n")
            exit(3)
        }
    }

    private static func failureFrame(_ failure: BackendFailure) -> [UInt8] {
        var writer = WireWriter(.failure)
        writer.failure(failure)
        return writer.finish()
    }

    // MARK: serve

    private static func serve() -> Never {
        let calls = (0..<Wire.callChannels).map { WireSocket(fd: Wire.firstCallFD + Int32($0)) }
        var open = receive(calls[0])
        let backend: PluginBackend
        do throws(BackendFailure) {
            guard open.kind == .open else { throw BackendFailure(.invalidArgument, "expected an open frame, got \(open.kind)") }
            let path: String, configDirectory: String?, backendID: String, settings: [(String, String)]
            do throws(Wire.ProtocolError) {
                path = try open.string("plugin path")
                configDirectory = try open.optional("config folder") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("config folder") }
                backendID = try open.string("backend id")
                settings = try open.array("settings", minimumElement: 8) { (r: inout WireReader) throws(Wire.ProtocolError) in
                    (try r.string("setting key"), try r.string("setting value"))
                }
                try open.end()
            } catch {
                throw BackendFailure(.invalidArgument, "a malformed open frame: \(error)")
            }
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            let plugin: LoadedPlugin
            do throws(PluginRejection) {
                plugin = try PluginLoader(directory: folder, configDirectory: configDirectory).loadFile(path)
            } catch {
                throw BackendFailure(.initFailed, "the plugin was refused: \(error)")
            }
            backend = try plugin.openModel(backendID: backendID, settings: Dictionary(settings) { _, last in last })
        } catch {
            calls[0].send(failureFrame(error))
            exit(0)
        }
        var ready = WireWriter(.ready)
        ready.info(backend.info)
        ready.bool(backend.offersTokenEmbeddings)
        ready.bool(backend.offersLogLikelihood)
        guard calls[0].send(ready.finish()) else { hostGone() }

        let slots = (0..<Wire.callChannels).map { _ in CallSlot() }
        Thread { control(WireSocket(fd: Wire.controlFD), slots: slots) }.start()
        Thread { queries(WireSocket(fd: Wire.queryFD), backend: backend) }.start()
        for channel in 1..<Wire.callChannels {
            Thread { serveCalls(calls[channel], slot: slots[channel], backend: backend) }.start()
        }
        serveCalls(calls[0], slot: slots[0], backend: backend)
    }

    /// Cancel requests, each for one call of one channel.
    private static func control(_ socket: WireSocket, slots: [CallSlot]) -> Never {
        while true {
            var frame = receive(socket)
            guard frame.kind == .cancel, let channel = try? frame.u8("channel"), Int(channel) < slots.count,
                  let id = try? frame.u64("call id") else {
                complain("tandem-plugin-host: a malformed control frame from the host\n")
                exit(3)
            }
            slots[Int(channel)].cancel(call: id)
        }
    }

    private static func queries(_ socket: WireSocket, backend: PluginBackend) -> Never {
        while true {
            var frame = receive(socket)
            let locale: String?
            do throws(Wire.ProtocolError) {
                guard frame.kind == .availability else { throw Wire.ProtocolError("a \(frame.kind) frame on the query channel") }
                locale = try frame.optional("locale") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("locale") }
                try frame.end()
            } catch {
                complain("tandem-plugin-host: a malformed query frame from the host: \(error)\n")
                exit(3)
            }
            var answer = WireWriter(.availabilityAnswer)
            answer.availability(backend.availability(locale: locale))
            guard socket.send(answer.finish()) else { hostGone() }
        }
    }

    private static func serveCalls(_ socket: WireSocket, slot: CallSlot, backend: PluginBackend) -> Never {
        while true {
            var frame = receive(socket)
            let reply: [UInt8]
            do throws(BackendFailure) {
                reply = try answer(&frame, on: socket, slot: slot, backend: backend)
            } catch {
                reply = failureFrame(error)
            }
            guard socket.send(reply) else { hostGone() }
        }
    }

    /// Runs one call; streamed events are sent as they come, the returned frame ends the call.
    private static func answer(
        _ frame: inout WireReader, on socket: WireSocket, slot: CallSlot, backend: PluginBackend
    ) throws(BackendFailure) -> [UInt8] {
        let kind = frame.kind
        let id: UInt64, request: BackendRequest?, texts: [String]
        do throws(Wire.ProtocolError) {
            id = try frame.u64("call id")
            switch kind {
            case .generate, .countTokens:
                request = try frame.request()
                texts = []
            case .embed:
                request = nil
                texts = try frame.array("texts", minimumElement: 4) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("text") }
            case .tokenEmbed:
                request = nil
                texts = [try frame.string("text")]
            case .scoreText:
                request = nil
                texts = [try frame.string("context"), try frame.string("continuation")]
            default:
                throw Wire.ProtocolError("a \(kind) frame on a call channel")
            }
            try frame.end()
        } catch {
            throw BackendFailure(.invalidArgument, "a malformed call frame from the host: \(error)")
        }
        let token = slot.begin(call: id)
        defer { slot.end() }
        switch kind {
        case .generate:
            // Each event waits for the host's answer, so stop and cancel act exactly where they
            // would in-process: no event follows a stop, the next poll sees a cancel.
            let result = try backend.generate(request!, cancellation: token) { event in
                var writer = WireWriter(.event)
                writer.event(event)
                guard socket.send(writer.finish()) else { hostGone() }
                var answer = receive(socket)
                guard answer.kind == .flow, let flags = try? answer.u8("flow") else {
                    complain("tandem-plugin-host: a \(answer.kind) frame instead of the answer to an event\n")
                    exit(3)
                }
                if flags & Wire.flowCancelled != 0 { token.cancel() }
                return flags & Wire.flowStop == 0
            }
            var writer = WireWriter(.result)
            writer.result(result)
            return writer.finish()
        case .embed:
            let vectors = try backend.embed(texts, cancellation: token)
            let width = vectors.first?.count ?? 0
            var writer = WireWriter(.embeddings, capacity: 16 + vectors.count * width * 4)
            writer.u32(UInt32(vectors.count))
            writer.u32(UInt32(width))
            for vector in vectors {
                guard vector.count == width else { throw BackendFailure(.decoding, "embed returned vectors of different lengths") }
                for value in vector { writer.f32(value) }
            }
            return writer.finish()
        case .tokenEmbed:
            let answer = try backend.tokenEmbeddings(texts[0], cancellation: token)
            let width = backend.info.embeddingDimensions
            var writer = WireWriter(.tokenEmbeddings, capacity: 16 + answer.ids.count * (width + 1) * 4)
            writer.u32(UInt32(answer.ids.count))
            writer.u32(UInt32(width))
            for (id, state) in zip(answer.ids, answer.states) {
                guard state.count == width else { throw BackendFailure(.decoding, "token_embeddings returned states of another width") }
                writer.i32(id)
                for value in state { writer.f32(value) }
            }
            return writer.finish()
        case .scoreText:
            let answer = try backend.logLikelihood(of: texts[1], after: texts[0], cancellation: token)
            var writer = WireWriter(.logLikelihood)
            writer.f64(answer.value)
            writer.u32(UInt32(answer.tokens))
            return writer.finish()
        default:
            var writer = WireWriter(.tokenCount)
            writer.int(try backend.countTokens(request!))
            return writer.finish()
        }
    }

    // MARK: probe

    private static func probe() -> Never {
        let socket = WireSocket(fd: Wire.controlFD)
        var frame = receive(socket)
        let directory: String, configDirectory: String?, skipped: [String]
        do throws(Wire.ProtocolError) {
            guard frame.kind == .probe else { throw Wire.ProtocolError("expected a probe frame, got \(frame.kind)") }
            directory = try frame.string("folder")
            configDirectory = try frame.optional("config folder") { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("config folder") }
            skipped = try frame.array("skipped", minimumElement: 4) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.string("path") }
            try frame.end()
        } catch {
            complain("tandem-plugin-host: a malformed probe frame: \(error)\n")
            exit(3)
        }
        let catalog = PluginLoader(directory: directory, configDirectory: configDirectory).load(skipping: Set(skipped)) { path in
            var probing = WireWriter(.probing)
            probing.string(path)
            guard socket.send(probing.finish()) else { hostGone() }
        }
        var writer = WireWriter(.catalog)
        writer.string(catalog.directory)
        writer.array(catalog.plugins) { w, plugin in w.identity(plugin.identity) }
        writer.array(catalog.rejections) { w, rejection in w.rejection(rejection) }
        writer.u64(UInt64(catalog.duration / .nanoseconds(1)))
        socket.send(writer.finish())
        exit(0)
    }
}

/// The call a channel is running, so that the control thread can cancel it. A cancel may
/// arrive before its call has begun; it is kept for the call it names.
private final class CallSlot: Sendable {
    private struct State {
        var call: UInt64 = 0
        var token: CancellationToken?
        var pendingCancel: UInt64 = 0
    }
    private let state = Mutex(State())

    func begin(call: UInt64) -> CancellationToken {
        let token = CancellationToken()
        let cancelNow = state.withLock { state -> Bool in
            state.call = call
            state.token = token
            return state.pendingCancel == call
        }
        if cancelNow { token.cancel() }
        return token
    }

    func end() {
        state.withLock { $0.token = nil; $0.call = 0 }
    }

    func cancel(call: UInt64) {
        let token = state.withLock { state -> CancellationToken? in
            guard state.call == call else { state.pendingCancel = call; return nil }
            return state.token
        }
        // Outside the lock: the plugin's waker runs on this thread.
        token?.cancel()
    }
}
