import Foundation
import Synchronization

/// Ctrl-C (SIGINT) for the whole process: it cancels the work a command registered (so the
/// plugin sees its cancel token and the command exits with `ExitCode.cancelled`), and before any
/// work is registered it exits at once with that code.
enum Interrupt {
    private static let action = Mutex<(@Sendable () -> Void)?>(nil)
    /// Kept alive for the process; written once by `install` before any task runs.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    /// Call first thing in `main`, so no interrupt can fall between start-up and `onInterrupt`.
    static func install() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler {
            guard let action = action.withLock({ $0 }) else {
                Terminal.error("interrupted")
                exit(ExitCode.cancelled.rawValue)
            }
            action()
        }
        source.resume()
        Interrupt.source = source
    }

    /// Routes the next interrupts to `action` (cancelling the command's work); nil: the next
    /// interrupt exits again.
    static func onInterrupt(_ action: (@Sendable () -> Void)?) {
        self.action.withLock { $0 = action }
    }
}
