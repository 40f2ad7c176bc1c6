// Measures loading plugins.d/ in a fresh process, as the host does at start: listing, checks,
// dlopen, negotiation. Target: all plugins loaded in at most 50 ms; exits 1 when over it.
// Usage: tandem-bench-plugin-load [PLUGINS_DIR]
import Glibc
import Tandem

let directory = CommandLine.arguments.dropFirst().first ?? "plugins.d"
let target = Duration.milliseconds(50)
let catalog = PluginLoader(directory: directory).load()
let milliseconds = (catalog.duration / .milliseconds(1) * 100).rounded() / 100

print("plugin load: \(catalog.plugins.count) plugins (\(catalog.plugins.map(\.id).joined(separator: ", "))) in \(milliseconds) ms (target <= 50 ms)")
for rejection in catalog.rejections { print("  refused: \(rejection)") }
if catalog.duration > target {
    print("plugin load: over target")
    exit(1)
}
