import CTandemABI
import Synchronization

/// A `CancellationToken` seen through the ABI's `tandem_cancel` for one plugin call: the plugin
/// polls `is_cancelled` and may register one waker, which the token runs at most once.
final class CancelBridge: Sendable {
    let token: CancellationToken
    private let pluginID: String
    /// The token's key of the waker the plugin registered, if any.
    private let wakerKey = Mutex<Int?>(nil)

    init(_ token: CancellationToken, pluginID: String) {
        self.token = token
        self.pluginID = pluginID
    }

    /// The C view. `data` is this bridge, unretained: it outlives the call it is passed to.
    var cToken: tandem_cancel {
        tandem_cancel(
            struct_size: UInt32(MemoryLayout<tandem_cancel>.size), data: Unmanaged.passUnretained(self).toOpaque(),
            is_cancelled: { data in Unmanaged<CancelBridge>.fromOpaque(data!).takeUnretainedValue().token.isCancelled },
            set_waker: { data, wake, context in
                Unmanaged<CancelBridge>.fromOpaque(data!).takeUnretainedValue().setWaker(wake.map { PluginWaker(wake: $0, context: context) })
            })
    }

    private func setWaker(_ waker: PluginWaker?) {
        wakerKey.withLock { key in
            if let old = key { token.removeWaker(old) }
            key = nil
        }
        guard let waker else { return }
        // Registered outside the lock: when the token is already cancelled, the waker runs now.
        let key = token.addWaker { waker.fire() }
        wakerKey.withLock { $0 = key }
    }

    /// Called when the plugin call returned. A plugin must unregister its waker before then; if
    /// it did not, the waker is dropped here so a later cancel never calls into a finished call.
    func finishCall() {
        let leftover = wakerKey.withLock { key -> Int? in
            defer { key = nil }
            return key
        }
        if let leftover {
            token.removeWaker(leftover)
            PluginHostServices.log(source: pluginID, .warn, "returned without unregistering its cancellation waker")
        }
    }
}

/// A plugin's waker function and its context, called from whichever thread cancels.
private struct PluginWaker: @unchecked Sendable {
    let wake: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let context: UnsafeMutableRawPointer?
    func fire() { wake(context) }
}
