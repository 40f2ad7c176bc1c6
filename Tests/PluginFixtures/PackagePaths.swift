import Foundation

/// Where the tests find what the Makefile built and fetched: the package's folder, its
/// `plugins.d/` (`make plugins`), the build folder (the test bundle and every built binary) and
/// `models/` (`make model`, `make embedding-model`, `make word-frequencies`).
public enum PackagePaths {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// `TANDEM_PLUGINS_DIR` when set (plugins installed elsewhere), else the package's `plugins.d/`.
    public static let plugins: String = {
        if let path = ProcessInfo.processInfo.environment["TANDEM_PLUGINS_DIR"], !path.isEmpty { return path }
        return root + "/plugins.d"
    }()
    /// The folder of the running test bundle, where SwiftPM put the binaries it built with it.
    public static let build = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    public static let models = root + "/models"

    /// A binary built beside the test bundle (`tandem`, `tandem-llama`, ...).
    public static func binary(_ name: String) -> String { build + "/" + name }
}
