// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [],
    targets: [
        // The C ABI shared by the host and every plugin: one header, nothing else.
        .target(name: "CTandemABI", path: "Sources/CTandemABI"),

        // Swift values of the ABI's types, with conversions both ways (host encodes, plugins decode).
        .target(name: "TandemBridge", dependencies: ["CTandemABI"], path: "Sources/TandemBridge"),

        // The host library: loading, backends, routing, sessions, options, pipeline.
        .target(name: "Tandem", dependencies: ["CTandemABI", "TandemBridge"], path: "Sources/Tandem"),

        // What every Swift plugin shares: settings, the model table, events, cancellation, the entry.
        .target(name: "TandemPluginKit", dependencies: ["CTandemABI", "TandemBridge"], path: "Plugins/PluginKit"),

        // The local runner's engine: GGUF, tensors, tokenizers, templates, forward pass, sampling.
        .target(name: "LlamaEngine", path: "Plugins/LlamaRunner/Engine"),

        // Quote library (DESIGN §6): the system SQLite, then store, curated catalog, quality
        // pipeline, read-only agent tools and evaluation; a crash-test writer for the store tests.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "QuoteLibrary", dependencies: ["CSQLite"], path: "Sources/QuoteLibrary", exclude: ["README.md"]),
        .executableTarget(name: "QuoteStoreCrashWriter", dependencies: ["QuoteLibrary"],
                          path: "Tests/QuoteStoreCrashWriter"),
        .testTarget(name: "QuoteLibraryTests", dependencies: ["QuoteLibrary", "QuoteStoreCrashWriter"],
                    path: "Tests/QuoteLibraryTests"),
        // Guided generation: JSON values, schemas, Generable, constrained-decoding automaton and token mask.
        .target(name: "GuidedJSON", path: "Sources/GuidedJSON", exclude: ["README.md"]),
        .testTarget(name: "GuidedJSONTests", dependencies: ["GuidedJSON"], path: "Tests/GuidedJSONTests"),
    ]
)
