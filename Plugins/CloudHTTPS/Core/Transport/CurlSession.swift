import CCurl
import Glibc
import TandemBridge
import TandemPluginKit

/// Runs the HTTP exchanges of one call through a libcurl multi handle on the calling thread.
///
/// The multi handle is what makes cancellation prompt: `wake()` (the host's cancellation waker,
/// from any thread) interrupts `curl_multi_poll`, so a transfer or a retry wait notices the
/// cancellation within milliseconds; without a waker the loop still polls every 50 ms.
public final class CurlSession: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer

    static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init() throws(BackendFailure) {
        guard Self.globalInit, let multi = curl_multi_init() else {
            throw BackendFailure(.initFailed, "libcurl could not be initialised")
        }
        self.multi = multi
    }

    deinit { curl_multi_cleanup(multi) }

    /// Interrupts a running poll. Safe from any thread (`curl_multi_wakeup` is thread-safe).
    public func wake() { curl_multi_wakeup(multi) }

    /// Waits `milliseconds`, or throws `cancelled` as soon as the cancellation fires.
    public func sleep(milliseconds: Int64, cancellation: PluginCancellation) throws(BackendFailure) {
        let end = MonotonicClock.nowMilliseconds() + milliseconds
        while true {
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled while waiting to retry") }
            let left = end - MonotonicClock.nowMilliseconds()
            if left <= 0 { return }
            var fired: Int32 = 0
            curl_multi_poll(multi, nil, 0, Int32(min(left, Self.pollSlice)), &fired)
        }
    }

    static let pollSlice: Int64 = 50

    /// Performs one exchange. `receiver` sees the final response head, then the body as it
    /// arrives; it may end the transfer early (not an error) by returning false from `body`.
    /// Throws the classified transport failure: offline, tls, timeout, cancelled, serverError
    /// (connection cut), or whatever the receiver threw.
    public func perform(
        _ request: HTTPRequest, caFile: String?, timeouts: TransportTimeouts, deadline: Deadline,
        cancellation: PluginCancellation, receiver: TransferReceiver
    ) throws(BackendFailure) -> TransferOutcome {
        guard let easy = curl_easy_init() else { throw BackendFailure(.initFailed, "libcurl could not create a transfer") }
        defer { curl_easy_cleanup(easy) }
        let signalMask = SIGPIPEBlock()
        defer { signalMask.restore() }
        let context = TransferContext(receiver: receiver)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        headerList = curl_slist_append(headerList, "Expect:")  // no 100-continue round trip

        return try errorBuffer.withUnsafeMutableBufferPointer { errorText throws(BackendFailure) -> TransferOutcome in
            var setupFailed = false
            func check(_ code: CURLcode) { if code != CURLE_OK { setupFailed = true } }
            check(tandem_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText.baseAddress))
            check(tandem_curl_setopt_pointer(easy, CURLOPT_URL, request.url))
            check(tandem_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
            check(tandem_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))  // a redirect must not carry the key elsewhere
            check(tandem_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
            check(tandem_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
            check(tandem_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
            if let caFile { check(tandem_curl_setopt_pointer(easy, CURLOPT_CAINFO, caFile)) }
            check(tandem_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, timeouts.connectMilliseconds))))
            check(tandem_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList))
            check(tandem_curl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlWriteBody))
            check(tandem_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, contextPointer))
            check(tandem_curl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader))
            check(tandem_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, contextPointer))
            switch request.method {
            case .get:
                check(tandem_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
            case .post:
                let body = request.body ?? []
                check(tandem_curl_setopt_long(easy, CURLOPT_POST, 1))
                check(tandem_curl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                // COPYPOSTFIELDS: libcurl keeps its own copy; the Swift buffer may go away.
                check(body.withUnsafeBytes { tandem_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) })
            }
            guard !setupFailed else { throw BackendFailure(.initFailed, "libcurl rejected a transfer option (is libcurl older than 7.85?)") }

            guard curl_multi_add_handle(multi, easy) == CURLM_OK else { throw BackendFailure(.initFailed, "libcurl could not start a transfer") }
            defer { curl_multi_remove_handle(multi, easy) }
            let start = MonotonicClock.nowMilliseconds()
            context.lastByteAt = start

            var result: CURLcode?
            while result == nil {
                var running: Int32 = 0
                curl_multi_perform(multi, &running)
                if let failure = context.receiverFailure { throw failure }
                var queued: Int32 = 0
                while let message = curl_multi_info_read(multi, &queued) {
                    if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
                }
                if result != nil { break }
                if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled during \(request.redactedDescription)") }
                let now = MonotonicClock.nowMilliseconds()
                if deadline.hasPassed {
                    throw BackendFailure(.timeout, "the call's total deadline passed during \(request.redactedDescription)")
                }
                if !context.receivedAnyByte, now - start >= timeouts.firstByteMilliseconds {
                    if !Self.isConnected(easy) {
                        throw BackendFailure(.offline, "could not connect within \(timeouts.firstByteMilliseconds) ms (\(request.redactedDescription))")
                    }
                    throw BackendFailure(.timeout, "no response within \(timeouts.firstByteMilliseconds) ms to \(request.redactedDescription)")
                }
                if context.receivedAnyByte, now - context.lastByteAt >= timeouts.idleMilliseconds {
                    throw BackendFailure(.timeout, "no data for \(timeouts.idleMilliseconds) ms during \(request.redactedDescription)")
                }
                let nextCheck = min(
                    Self.pollSlice, deadline.remainingMilliseconds,
                    context.receivedAnyByte ? timeouts.idleMilliseconds - (now - context.lastByteAt) : timeouts.firstByteMilliseconds - (now - start))
                var fired: Int32 = 0
                curl_multi_poll(multi, nil, 0, Int32(max(1, nextCheck)), &fired)
            }
            let code = result!
            if let failure = context.receiverFailure { throw failure }
            if context.stoppedByReceiver { return TransferOutcome(head: context.head, stoppedByReceiver: true) }
            guard code == CURLE_OK else {
                let detail = String(cString: errorText.baseAddress!)
                throw Self.classify(code, detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail,
                                    receivedAnyByte: context.receivedAnyByte, connected: Self.isConnected(easy),
                                    head: context.head, request: request)
            }
            guard let head = context.head else {
                throw BackendFailure(.serverError, "the server closed the connection without a response (\(request.redactedDescription))")
            }
            return TransferOutcome(head: head, stoppedByReceiver: false)
        }
    }

    private static func isConnected(_ easy: UnsafeMutableRawPointer) -> Bool {
        var connectTime: curl_off_t = 0
        return tandem_curl_getinfo_off(easy, CURLINFO_CONNECT_TIME_T, &connectTime) == CURLE_OK && connectTime > 0
    }

    /// Maps a libcurl failure to the ABI's classes. Offline means no response byte arrived
    /// because the network path failed: the one class a prefer-cloud router may fall back on.
    static func classify(
        _ code: CURLcode, detail: String, receivedAnyByte: Bool, connected: Bool, head: HTTPResponseHead?, request: HTTPRequest
    ) -> BackendFailure {
        let what = request.redactedDescription
        var failure: BackendFailure
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            failure = BackendFailure(.offline, "cannot resolve the host of \(what): \(detail)")
        case CURLE_COULDNT_CONNECT:
            failure = BackendFailure(.offline, "cannot connect for \(what): \(detail)")
        case CURLE_OPERATION_TIMEDOUT where !receivedAnyByte && !connected:
            failure = BackendFailure(.offline, "connect timeout for \(what): \(detail)")
        case CURLE_OPERATION_TIMEDOUT:
            failure = BackendFailure(.timeout, "timed out during \(what): \(detail)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_USE_SSL_FAILED:
            failure = BackendFailure(.tls, "TLS failed for \(what): \(detail)")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            failure = BackendFailure(.serverError, receivedAnyByte
                ? "the connection ended before the response was complete (\(what)): \(detail)"
                : "the server closed the connection without a response (\(what)): \(detail)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            failure = BackendFailure(.invalidArgument, "bad URL for \(what): \(detail)")
        default:
            failure = BackendFailure(.unknown, "transfer failed for \(what): \(detail)")
        }
        failure.osError = Int32(code.rawValue)
        failure.httpStatus = Int32(head?.status ?? 0)
        return failure
    }
}
