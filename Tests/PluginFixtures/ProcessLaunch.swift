import Foundation
import Synchronization

/// Starts a Foundation `Process` with no other test's `run()` under way: on Linux,
/// `Process.run()` called from many threads at once crashed the whole test process (SIGSEGV in
/// its spawn set-up, seen in a full `make test`). Only the start is serialised; waiting is not.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
