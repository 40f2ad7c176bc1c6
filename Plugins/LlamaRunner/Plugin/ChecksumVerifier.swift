import Foundation
import Synchronization

/// Checks model files against pinned SHA-256 digests in the background, so `availability` stays
/// cheap: the first look starts a verification and reports progress; later looks read the
/// outcome. Outcomes are cached by file stamp (path, size, mtime) in memory and in
/// `$XDG_CACHE_HOME/tandem/verified-models` (default `~/.cache/...`), so each file state is
/// hashed once per machine, not once per process. Only matches are persisted.
final class ChecksumVerifier: Sendable {
    enum State: Equatable {
        case verified
        case mismatch(actual: String)
        /// Under way; the fraction of bytes hashed.
        case verifying(Double)
        case failed(String)
    }

    private struct Key: Hashable { let stamp: FileStamp; let expected: String }
    private let states = Mutex<[Key: State]>([:])
    let cacheFile: String?

    init(cacheFile: String? = ChecksumVerifier.defaultCacheFile) {
        self.cacheFile = cacheFile
    }

    static var defaultCacheFile: String? {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/tandem/verified-models" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/tandem/verified-models" }
        return nil
    }

    /// The state of `stamp` against `expected`; starts a verification when there is none.
    func state(of stamp: FileStamp, expected: String) -> State {
        let key = Key(stamp: stamp, expected: expected)
        let (state, start) = states.withLock { states -> (State, Bool) in
            if let known = states[key] { return (known, false) }
            if isPersisted(key) { states[key] = .verified; return (.verified, false) }
            states[key] = .verifying(0)
            return (.verifying(0), true)
        }
        if start {
            let thread = Thread { [self] in self.verify(key) }
            thread.name = "tandem.llama sha256"
            thread.start()
        }
        return state
    }

    /// Waits until `stamp` is no longer being verified (polling `shouldStop` every 20 ms) and
    /// returns its state; nil when stopped first.
    func wait(for stamp: FileStamp, expected: String, shouldStop: () -> Bool) -> State? {
        while true {
            let current = state(of: stamp, expected: expected)
            if case .verifying = current {
                if shouldStop() { return nil }
                usleep(20_000)
                continue
            }
            return current
        }
    }

    private func verify(_ key: Key) {
        let outcome: State
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: key.stamp.path))
            defer { try? handle.close() }
            var hasher = SHA256()
            var done = 0
            while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hasher.update($0) }
                done += chunk.count
                let fraction = key.stamp.size > 0 ? min(1, Double(done) / Double(key.stamp.size)) : 1
                states.withLock { $0[key] = .verifying(fraction) }
            }
            let digest = hasher.finish()
            if done != key.stamp.size {
                outcome = .failed("the file changed while it was verified (\(done) bytes read, \(key.stamp.size) expected)")
            } else if digest == key.expected {
                outcome = .verified
                persist(key)
            } else {
                outcome = .mismatch(actual: digest)
            }
        } catch {
            outcome = .failed("cannot read \(key.stamp.path): \(error.localizedDescription)")
        }
        states.withLock { $0[key] = outcome }
    }

    private func line(_ key: Key) -> String {
        "\(key.expected)\t\(key.stamp.size)\t\(key.stamp.modifiedNanoseconds)\t\(key.stamp.path)"
    }

    private func isPersisted(_ key: Key) -> Bool {
        guard let cacheFile, let text = try? String(contentsOfFile: cacheFile, encoding: .utf8) else { return false }
        let wanted = line(key)
        return text.split(separator: "\n").contains { $0 == wanted }
    }

    /// Appends one line; a cache that cannot be written only costs a re-verification later.
    private func persist(_ key: Key) {
        guard let cacheFile else { return }
        let folder = (cacheFile as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = Data((line(key) + "\n").utf8)
        if let handle = FileHandle(forWritingAtPath: cacheFile) {
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: data)
        } else {
            _ = FileManager.default.createFile(atPath: cacheFile, contents: data)
        }
    }
}
