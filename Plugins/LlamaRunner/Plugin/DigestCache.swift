import Foundation
import Glibc
import TandemPluginKit

/// SHA-256 digests of model files already hashed, kept on disk so that a pinned file is hashed
/// once per file version, not once per process: one-shot commands (`tandem respond`) would
/// otherwise hash the whole file on every run.
///
/// Where: `$XDG_CACHE_HOME/tandem/model-digests` (default `~/.cache/tandem/model-digests`), not
/// beside the model: the models folder may be read-only or shared with other users, and a record
/// beside a file would travel with a copy of it.
///
/// Why it cannot vouch for other bytes:
/// - a record is the digest of one file version: path, device, inode, size, mtime and ctime
///   must all match. Writing the file moves its ctime, which no unprivileged user can set back,
///   so an edit in place (even with the mtime restored) or a replaced file is hashed again;
/// - the record holds the digest that was computed, and the pin is compared with it on every
///   check, so a changed pin never needs a re-hash and never inherits an old verdict;
/// - the file is read only when it and its folder belong to this user and nobody else may write
///   them (as ssh treats its files); otherwise it is ignored and not written;
/// - a line that does not parse is skipped, and rewrites go through a new file and a rename, so
///   a crash mid-write leaves the previous records.
struct DigestCache: Sendable {
    /// The cache file, or nil for none (no home folder): every process then hashes again.
    let file: String?
    /// Records kept; the oldest go first, and so do those of files that are gone.
    static let maximumRecords = 64

    static var defaultFile: String? { PluginCacheFolder.path().map { $0 + "/model-digests" } }

    private struct Record: Equatable {
        let device: UInt64, inode: UInt64, size: Int, modified: Int, changed: Int
        let digest: String
        let path: String

        init(_ stamp: FileStamp, digest: String) {
            (device, inode, size, modified, changed) = (stamp.device, stamp.inode, stamp.size, stamp.modifiedNanoseconds, stamp.changedNanoseconds)
            self.digest = digest
            path = stamp.path
        }

        init?(line: Substring) {
            let fields = line.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false)
            guard fields.count == 7, let device = UInt64(fields[0]), let inode = UInt64(fields[1]), let size = Int(fields[2]),
                  let modified = Int(fields[3]), let changed = Int(fields[4]), Self.isDigest(fields[5]), fields[6].hasPrefix("/")
            else { return nil }
            (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
            digest = String(fields[5])
            path = String(fields[6])
        }

        func matches(_ stamp: FileStamp) -> Bool { self == Record(stamp, digest: digest) }

        var line: String { "\(device)\t\(inode)\t\(size)\t\(modified)\t\(changed)\t\(digest)\t\(path)" }

        static func isDigest(_ text: Substring) -> Bool {
            text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
    }

    /// The digest recorded for exactly this file version, if any.
    func digest(for stamp: FileStamp) -> String? {
        records().last { $0.matches(stamp) }?.digest
    }

    /// Records `digest` for `stamp`, replacing older records of the same path. Failing to write
    /// only costs a re-hash later, so errors are not reported.
    func record(_ digest: String, for stamp: FileStamp) {
        guard let file, stamp.path.hasPrefix("/"), !stamp.path.contains(where: { $0 == "\n" || $0 == "\t" }) else { return }
        let folder = (file as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard PluginCacheFolder.isPrivate(folder, directory: true) else { return }
        var kept = records().filter { $0.path != stamp.path && FileStamp.of($0.path).stamp.map($0.matches) == true }
        kept.append(Record(stamp, digest: digest))
        let text = kept.suffix(Self.maximumRecords).map { $0.line + "\n" }.joined()
        let temporary = "\(file).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != bytes.count || rename(temporary, file) != 0 { unlink(temporary) }
    }

    private func records() -> [Record] {
        guard let file, PluginCacheFolder.isPrivate((file as NSString).deletingLastPathComponent, directory: true),
              PluginCacheFolder.isPrivate(file, directory: false),
              let text = try? String(contentsOfFile: file, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap(Record.init(line:))
    }
}
