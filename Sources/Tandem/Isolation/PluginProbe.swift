import Glibc

/// Lists a plugins folder for an isolated host without loading anything into the host: a
/// `tandem-plugin-host probe` child loads it with the loader's checks and names each file before
/// entering it. A file whose constructors or entry kill the child (or that does not finish
/// loading within `fileBound`) becomes a `crashed` rejection, and a new child carries on past it.
enum PluginProbe {
    static let fileBound: Duration = .seconds(10)

    static func listing(directory: String, configDirectory: String?) -> PluginListing {
        let clock = ContinuousClock()
        let start = clock.now
        var crashed: [PluginRejection] = []
        while true {
            switch probeOnce(directory: directory, configDirectory: configDirectory, skipping: crashed.map(\.path)) {
            case .success(let listing):
                let rejections = (listing.rejections + crashed).sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
                return PluginListing(directory: listing.directory, plugins: listing.plugins, rejections: rejections, duration: clock.now - start)
            case .failure(let rejection):
                guard rejection.path != PluginLoader.absolute(directory) else {
                    return PluginListing(directory: rejection.path, plugins: [], rejections: crashed + [rejection], duration: clock.now - start)
                }
                crashed.append(rejection)
            }
        }
    }

    /// One child's pass: its listing, or the rejection of the file it died in (of the folder
    /// when it died outside any file).
    private static func probeOnce(directory: String, configDirectory: String?, skipping: [String]) -> Result<PluginListing, PluginRejection> {
        let folder = PluginLoader.absolute(directory)
        let child: ChildProcess
        do throws(BackendFailure) {
            child = try ChildProcess(arguments: ["probe"], socketCount: 1, label: "plugin probe")
        } catch {
            return .failure(PluginRejection(.openFailed, path: folder, error.message))
        }
        var request = WireWriter(.probe)
        request.string(directory)
        request.optional(configDirectory) { w, text in w.string(text) }
        request.array(skipping) { w, path in w.string(path) }
        let socket = child.sockets[0]
        socket.send(request.finish())
        var current = folder
        var deadline = ContinuousClock.now + fileBound
        do throws(Wire.ProtocolError) {
            while true {
                switch try socket.receive(timeoutMilliseconds: 100) {
                case .timedOut:
                    guard ContinuousClock.now >= deadline else { continue }
                    return .failure(PluginRejection(.crashed, path: current, "loading did not finish within \(fileBound); the probe process \(child.end(killing: true))"))
                case .closed:
                    return .failure(PluginRejection(.crashed, path: current, "loading it killed the process that tried: it \(child.end(killing: false))"))
                case .frame(var frame):
                    switch frame.kind {
                    case .probing:
                        current = try frame.string("path")
                        try frame.end()
                        deadline = .now + fileBound
                    case .catalog:
                        let listing = PluginListing(
                            directory: try frame.string("folder"),
                            plugins: try frame.array("plugins", minimumElement: 20) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.identity() },
                            rejections: try frame.array("rejections", minimumElement: 12) { (r: inout WireReader) throws(Wire.ProtocolError) in try r.rejection() },
                            duration: .nanoseconds(Int64(bitPattern: try frame.u64("duration"))))
                        try frame.end()
                        _ = child.end(killing: false)
                        return .success(listing)
                    default:
                        throw Wire.ProtocolError("an unexpected \(frame.kind) frame")
                    }
                }
            }
        } catch {
            return .failure(PluginRejection(.crashed, path: current, "the probe process sent a malformed frame (\(error)); it \(child.end(killing: true))"))
        }
    }
}
