import Foundation

/// How much memory this process can have at most: the machine's total (`/proc/meminfo`
/// MemTotal), lowered by a cgroup v2 limit (`/sys/fs/cgroup/memory.max`) when one is set.
/// Total rather than free memory, because mapped weights live in the page cache and free memory
/// changes from second to second; a model that cannot fit in the total can never run.
enum MemoryLimit {
    static func bytes(meminfo: String = "/proc/meminfo", cgroup: String = "/sys/fs/cgroup/memory.max") -> Int? {
        var limit: Int?
        if let text = try? String(contentsOfFile: meminfo, encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }) {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kib = Int(fields[1]) { limit = kib * 1024 }
        }
        if let text = try? String(contentsOfFile: cgroup, encoding: .utf8),
           let cap = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            limit = min(limit ?? cap, cap)
        }
        return limit
    }
}
