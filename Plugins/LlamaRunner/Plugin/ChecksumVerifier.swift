import Foundation
import Synchronization

/// Hashes model files for their pinned SHA-256 in a background thread, so `availability` stays
/// cheap: the first look at a file version starts the hash and reports its progress; later looks
/// read the digest. Digests are kept by file stamp in memory and in the `DigestCache` on disk, so
/// each file version is hashed once, not once per process. The pin is compared by the caller
/// (`ModelAvailability`), never stored with the verdict.
final class ChecksumVerifier: Sendable {
    enum State: Equatable {
        /// Under way; the fraction of bytes hashed.
        case hashing(Double)
        /// The file's SHA-256, lower-case hex.
        case hashed(String)
        case failed(String)
    }

    private let states = Mutex<[FileStamp: State]>([:])
    let cache: DigestCache

    init(cache: DigestCache = DigestCache(file: DigestCache.defaultFile)) {
        self.cache = cache
    }

    /// The state of the file version `stamp`; starts hashing it when it is neither known nor cached.
    func state(of stamp: FileStamp) -> State {
        let (state, start) = states.withLock { states -> (State, Bool) in
            if let known = states[stamp] { return (known, false) }
            if let digest = cache.digest(for: stamp) {
                states[stamp] = .hashed(digest)
                return (.hashed(digest), false)
            }
            states[stamp] = .hashing(0)
            return (.hashing(0), true)
        }
        if start {
            let thread = Thread { [self] in self.hash(stamp) }
            thread.name = "tandem.llama sha256"
            thread.start()
        }
        return state
    }

    /// Waits until `stamp` is no longer being hashed (polling `shouldStop` every 20 ms) and
    /// returns its state; nil when stopped first.
    func wait(for stamp: FileStamp, shouldStop: () -> Bool) -> State? {
        while true {
            let current = state(of: stamp)
            guard case .hashing = current else { return current }
            if shouldStop() { return nil }
            usleep(20_000)
        }
    }

    private func hash(_ stamp: FileStamp) {
        let outcome: State
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: stamp.path))
            defer { try? handle.close() }
            var hasher = SHA256()
            var done = 0
            while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hasher.update($0) }
                done += chunk.count
                let fraction = stamp.size > 0 ? min(1, Double(done) / Double(stamp.size)) : 1
                states.withLock { $0[stamp] = .hashing(fraction) }
            }
            let digest = hasher.finish()
            if done != stamp.size || FileStamp.of(stamp.path).stamp != stamp {
                outcome = .failed("\(stamp.path) changed while it was hashed (\(done) bytes read, \(stamp.size) expected)")
            } else {
                outcome = .hashed(digest)
                cache.record(digest, for: stamp)
            }
        } catch {
            outcome = .failed("cannot read \(stamp.path): \(error.localizedDescription)")
        }
        states.withLock { $0[stamp] = outcome }
    }
}
