// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem", targets: ["TandemCLI"]),
        // Plugins: each a dynamic library, installed into plugins.d/ by `make plugins`.
        .library(name: "TandemFake", type: .dynamic, targets: ["TandemFake"]),
    ],
    targets: [
        // The C ABI shared by the host and every plugin: one header, nothing else.
        .target(name: "CTandemABI", path: "Sources/CTandemABI"),

        // Swift values of the ABI's types, with conversions both ways (host encodes, plugins decode).
        .target(name: "TandemBridge", dependencies: ["CTandemABI"], path: "Sources/TandemBridge"),

        // The host library: loading, backends, routing, sessions, options, pipeline.
        .target(name: "Tandem", dependencies: ["CTandemABI", "TandemBridge", "CLTDL"], path: "Sources/Tandem"),

        // libltdl, dlopen and <elf.h> for the plugin loader.
        .systemLibrary(name: "CLTDL", path: "Sources/CLTDL"),

        // What every Swift plugin shares: settings, the model table, events, cancellation, the entry.
        .target(name: "TandemPluginKit", dependencies: ["CTandemABI", "TandemBridge"], path: "Plugins/PluginKit"),

        // The command-line tool `tandem`: a thin layer over the host library.
        .executableTarget(name: "TandemCLI", dependencies: ["Tandem", "QuoteLibrary", "QuoteLibraryHost"], path: "Sources/TandemCLI"),
        // Routing overhead (host + fake) against a direct ABI call: `make bench`.
        .executableTarget(name: "tandem-bench-routing", dependencies: ["Tandem", "CTandemABI"], path: "Benchmarks/Routing"),
        // Runs the built `tandem` binary too, so it depends on the CLI target to have it built.
        .testTarget(name: "TandemTests", dependencies: ["Tandem", "TandemCLI"], path: "Tests/TandemTests"),

        // The deterministic, scriptable fake backend (plugin id tandem.fake).
        .target(name: "TandemFake", dependencies: ["TandemPluginKit"], path: "Plugins/Fake", exclude: ["README.md"]),

        // Every plugin in plugins.d/ through the real loader against the ABI's rules.
        .testTarget(name: "ConformanceTests", dependencies: ["Tandem"], path: "Tests/ConformanceTests",
                    exclude: ["settings.json"]),
        // Bad plugins built in the tests, each rejected with its precise reason.
        .testTarget(name: "LoaderTests", dependencies: ["Tandem"], path: "Tests/LoaderTests", exclude: ["Fixtures"]),

        // Benchmark: loading plugins.d/ in a fresh process (target: at most 50 ms).
        .executableTarget(name: "tandem-bench-plugin-load", dependencies: ["Tandem"], path: "Benchmarks/PluginLoad"),

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
        // The quote pipeline bound to the host: draft, judge, embedder and readiness over backends.
        .target(name: "QuoteLibraryHost", dependencies: ["Tandem", "QuoteLibrary"], path: "Sources/QuoteLibraryHost"),
        // `tandem quote today` in fresh processes with an empty plugins.d (target: under 50 ms).
        .executableTarget(name: "tandem-bench-quote-today", path: "Benchmarks/QuoteToday"),
        // `tandem quote|ask|eval` through the built binary, with the fake plugin on both sides.
        .testTarget(name: "QuoteCLITests", dependencies: ["TandemCLI", "QuoteLibrary", "QuoteLibraryHost", "Tandem"], path: "Tests/QuoteCLITests"),
    ]
)
