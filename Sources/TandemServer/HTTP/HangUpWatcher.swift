import CMicroHTTPD
import Foundation
import Synchronization

/// Notices clients that hang up while their request is being answered. A connection's thread
/// is busy generating (or waiting for the next streamed chunk) and reads nothing from the socket,
/// so libmicrohttpd would only see the hang-up at its next write; this thread polls the sockets
/// of the requests in flight for POLLRDHUP and tells their owners at once.
///
/// - Note: Thread-safe. One thread for the whole server, started on the first registration.
public final class HangUpWatcher: Sendable {
    /// How long a hang-up may go unnoticed (also how soon a new registration is looked at).
    static let pollInterval: Int32 = 50

    private struct Watch {
        let fd: Int32
        let onHangUp: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int: Watch] = [:]
        var nextID = 0
        var started = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `onHangUp` once (on the watcher's thread) when the peer of `fd` closes it; the
    /// returned id ends the watch (`unwatch`).
    public func watch(fd: Int32, onHangUp: @escaping @Sendable () -> Void) -> Int {
        let (id, start) = state.withLock { state in
            state.nextID += 1
            state.watches[state.nextID] = Watch(fd: fd, onHangUp: onHangUp)
            defer { state.started = true }
            return (state.nextID, !state.started)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "tandem-serve-hangup"
            thread.start()
        }
        return id
    }

    public func unwatch(_ id: Int) {
        _ = state.withLock { $0.watches.removeValue(forKey: id) }
    }

    private func run() {
        while true {
            let watches = state.withLock { Array($0.watches) }
            guard !watches.isEmpty else {
                usleep(UInt32(Self.pollInterval) * 1000)
                continue
            }
            var fds = watches.map { pollfd(fd: $0.value.fd, events: TANDEM_POLLRDHUP, revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Self.pollInterval)
            guard ready > 0 else { continue }
            for (index, entry) in fds.enumerated() where entry.revents & (TANDEM_POLLRDHUP | Int16(POLLHUP | POLLERR | POLLNVAL)) != 0 {
                let id = watches[index].key
                // Only a watch still registered fires: its request may have just finished.
                if let watch = state.withLock({ $0.watches.removeValue(forKey: id) }) { watch.onHangUp() }
            }
        }
    }
}
