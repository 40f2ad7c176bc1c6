import Glibc

/// Keeps SIGPIPE away from the host while this thread transfers. With CURLOPT_NOSIGNAL (needed
/// with threads) libcurl does not ignore SIGPIPE itself, and whether a TLS write to a peer that
/// hung up can raise it depends on the libcurl and TLS library build; its default action ends the
/// whole host. The signal is thread-directed, so blocking it here and discarding a pending one
/// afterwards changes nothing for the rest of the process.
struct SIGPIPEBlock {
    private var previous = sigset_t()

    init() {
        var block = Self.pipeSet()
        pthread_sigmask(SIG_BLOCK, &block, &previous)
    }

    func restore() {
        var previous = previous
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
            var block = Self.pipeSet()
            var immediately = timespec()
            _ = sigtimedwait(&block, nil, &immediately)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    private static func pipeSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        return set
    }
}
