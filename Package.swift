// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem", targets: ["TandemCLI"]),
        .executable(name: "tandem-llama", targets: ["tandem-llama"]),
        // The child process an isolated backend's plugin runs in; `tandem` finds it next to itself.
        .executable(name: "tandem-plugin-host", targets: ["tandem-plugin-host"]),
        // Plugins: each a dynamic library, installed into plugins.d/<plugin id>.so by `make plugins`.
        .library(name: "TandemFake", type: .dynamic, targets: ["TandemFake"]),
        .library(name: "CloudHTTPS", type: .dynamic, targets: ["CloudHTTPSPlugin"]),
        .library(name: "TandemLlama", type: .dynamic, targets: ["TandemLlama"]),
    ],
    targets: [
        // ---- The ABI: the one header host and plugins share, and its Swift values ----
        .target(name: "CTandemABI", path: "Sources/CTandemABI"),
        // Swift values of the ABI's types, with conversions both ways (host encodes, plugins decode).
        .target(name: "TandemBridge", dependencies: ["CTandemABI"], path: "Sources/TandemBridge"),

        // ---- System libraries ----
        // libltdl, dlopen and <elf.h> for the plugin loader.
        .systemLibrary(name: "CLTDL", path: "Sources/CLTDL"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libcurl, with typed wrappers for its variadic functions.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // libmicrohttpd, with typed wrappers for its variadic functions (`tandem serve`).
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),

        // ---- Host ----
        // The host library: loading, backends, routing, sessions, options, guided output, tools.
        .target(name: "Tandem", dependencies: ["CTandemABI", "TandemBridge", "CLTDL", "GuidedJSON", "JSONModel"], path: "Sources/Tandem",
                exclude: ["Isolation/README.md"]),
        // The child process of an isolated backend: loads one plugin and serves it over sockets.
        .executableTarget(name: "tandem-plugin-host", dependencies: ["Tandem"], path: "Sources/TandemPluginHost"),
        // The one JSON model: values (ordered objects, exact integers), the strict push parser with
        // byte offsets and snapshots, the writer, JSON paths, UTF-8 validation. No Foundation.
        .target(name: "JSONModel", path: "Sources/JSONModel", exclude: ["README.md"]),
        // Guided generation: schemas, Generable, constrained-decoding automaton and token mask.
        .target(name: "GuidedJSON", dependencies: ["JSONModel"], path: "Sources/GuidedJSON", exclude: ["README.md"]),
        // Quote library (Sources/QuoteLibrary/README.md): store, curated catalog, quality pipeline,
        // read-only agent tools and evaluation. It does not depend on the host.
        .target(name: "QuoteLibrary", dependencies: ["CSQLite", "JSONModel"], path: "Sources/QuoteLibrary", exclude: ["README.md"]),
        // The quote pipeline bound to the host: draft, judge, embedder and readiness over backends.
        .target(name: "QuoteLibraryHost", dependencies: ["Tandem", "QuoteLibrary", "JSONModel"], path: "Sources/QuoteLibraryHost"),
        // `tandem serve`: the router behind an OpenAI-compatible HTTP API. HTTP/ (libmicrohttpd),
        // OpenAI/ (requests and answers), Server/ (routes, queues, cancellation, shutdown).
        .target(name: "TandemServer", dependencies: ["Tandem", "GuidedJSON", "JSONModel", "CMicroHTTPD"], path: "Sources/TandemServer"),
        // The command-line tool `tandem`: a thin layer over the host library.
        .executableTarget(name: "TandemCLI", dependencies: ["Tandem", "GuidedJSON", "JSONModel", "QuoteLibrary", "QuoteLibraryHost", "TandemServer"],
                          path: "Sources/TandemCLI"),

        // ---- Plugins ----
        // What every Swift plugin shares: settings, the model table, events, cancellation, the entry.
        .target(name: "TandemPluginKit", dependencies: ["CTandemABI", "TandemBridge"], path: "Plugins/PluginKit"),
        // The deterministic, scriptable fake backend (plugin id tandem.fake).
        .target(name: "TandemFake", dependencies: ["JSONModel", "TandemPluginKit"], path: "Plugins/Fake", exclude: ["README.md"]),
        // The cloud backend's logic (transport, SSE, Gemini and OpenAI dialects, errors, retries,
        // availability), a library so tests and the bench import it directly.
        .target(name: "CloudHTTPSCore", dependencies: ["CCurl", "CTandemABI", "JSONModel", "TandemBridge", "TandemPluginKit"],
                path: "Plugins/CloudHTTPS/Core"),
        // The cloud plugin's entry point (plugin id tandem.cloud): a thin shell around CloudHTTPSCore.
        .target(name: "CloudHTTPSPlugin", dependencies: ["CloudHTTPSCore", "CTandemABI", "TandemBridge", "TandemPluginKit"],
                path: "Plugins/CloudHTTPS/Plugin"),
        // The local runner's engine: GGUF, tensors, tokenizers, templates, forward pass, sampling.
        .target(name: "LlamaEngine", dependencies: ["CLlamaKernels"], path: "Plugins/LlamaRunner/Engine", exclude: ["README.md"]),
        // x86 intrinsics kernels for the engine, chosen at run time (Swift SIMD is the fallback).
        .target(name: "CLlamaKernels", path: "Plugins/LlamaRunner/CLlamaKernels"),
        // Tiny synthetic model files and the structured model-file fuzzer (tests and `make fuzz`).
        .target(name: "LlamaFuzz", dependencies: ["LlamaEngine"], path: "Plugins/LlamaRunner/Fuzz"),
        // The runner's companion tool (inspect, tokenize, complete, score, bench, fuzz), from the same engine.
        .executableTarget(name: "tandem-llama", dependencies: ["JSONModel", "LlamaEngine", "LlamaFuzz"], path: "Plugins/LlamaRunner/Tool"),
        // The local runner plugin (plugin id tandem.llama): a thin adapter from the ABI to the engine.
        .target(name: "TandemLlama", dependencies: ["TandemPluginKit", "LlamaEngine", "GuidedJSON", "JSONModel"],
                path: "Plugins/LlamaRunner/Plugin"),

        // ---- Benchmarks (`make bench`) ----
        // Routing overhead (host + fake) against a direct ABI call; with `isolation`, what a child
        // process costs a backend (first event, tokens/s of the real model).
        .executableTarget(name: "tandem-bench-routing", dependencies: ["Tandem", "CTandemABI"], path: "Benchmarks/Routing"),
        // Loading plugins.d/ in a fresh process (target: at most 50 ms).
        .executableTarget(name: "tandem-bench-plugin-load", dependencies: ["Tandem"], path: "Benchmarks/PluginLoad"),
        // `tandem quote today` in fresh processes with an empty plugins.d (target: under 50 ms).
        .executableTarget(name: "tandem-bench-quote-today", path: "Benchmarks/QuoteToday"),
        // The novelty gate's scan at 10k and 100k rows, and one check with a real embedder.
        .executableTarget(name: "tandem-bench-novelty", dependencies: ["QuoteLibrary", "QuoteLibraryHost", "Tandem"],
                          path: "Benchmarks/Novelty"),
        // `tandem serve` under 1, 8 and 32 clients, against routing in-process (libcurl clients).
        .executableTarget(name: "tandem-bench-serve", dependencies: ["Tandem", "CCurl"], path: "Benchmarks/Serve"),
        // Cloud: event latency against the mock server and SSE + JSON parse throughput.
        .executableTarget(name: "cloud-bench", dependencies: ["CloudHTTPSCore", "JSONModel", "TandemBridge"], path: "Plugins/CloudHTTPS/Bench"),

        // ---- Tests ----
        // Runs the built `tandem` binary too, so it depends on the CLI target to have it built.
        .testTarget(name: "TandemTests", dependencies: ["Tandem", "TandemCLI", "tandem-plugin-host", "PluginFixtures"], path: "Tests/TandemTests"),
        // Every plugin in plugins.d/ through the real loader against the ABI's rules.
        .testTarget(name: "ConformanceTests", dependencies: ["Tandem", "MockCloudServer", "tandem-plugin-host", "PluginFixtures"], path: "Tests/ConformanceTests",
                    exclude: ["settings.json"]),
        // Bad plugins built in the tests, each rejected with its precise reason.
        .testTarget(name: "LoaderTests", dependencies: ["Tandem", "tandem-plugin-host", "PluginFixtures"], path: "Tests/LoaderTests", exclude: ["Fixtures"]),
        // Test support: the one runner of child processes (TestProcess), the package's paths, a
        // config builder, a temporary plugins folder filled with plugins compiled from C by cc,
        // the manual clock and the recording backend.
        .target(name: "PluginFixtures", dependencies: ["Tandem"], path: "Tests/PluginFixtures"),
        // LlamaEngine for its seeded generator only (SeededGenerator, the one SplitMix64).
        .testTarget(name: "GuidedJSONTests", dependencies: ["GuidedJSON", "JSONModel", "LlamaEngine"], path: "Tests/GuidedJSONTests"),
        // Guided generation and tools in the host: typed responses, snapshots, the tool loop,
        // routing by capability, `tandem respond --schema`; through the real loader and tandem.fake.
        .testTarget(name: "GuidedHostTests", dependencies: ["Tandem", "GuidedJSON", "JSONModel", "TandemCLI", "tandem-plugin-host", "PluginFixtures"], path: "Tests/GuidedHostTests"),
        // A child process the store's crash and two-writer tests start and kill.
        .executableTarget(name: "QuoteStoreCrashWriter", dependencies: ["QuoteLibrary"], path: "Tests/QuoteStoreCrashWriter"),
        .testTarget(name: "QuoteLibraryTests", dependencies: ["QuoteLibrary", "GuidedJSON", "JSONModel", "QuoteStoreCrashWriter", "PluginFixtures"],
                    path: "Tests/QuoteLibraryTests"),
        // `tandem quote|ask|eval` through the built binary, with the fake plugin on both sides.
        .testTarget(name: "QuoteCLITests", dependencies: ["TandemCLI", "QuoteLibrary", "QuoteLibraryHost", "Tandem", "tandem-plugin-host", "PluginFixtures"],
                    path: "Tests/QuoteCLITests"),
        // Test support: the TLS mock of both cloud protocols (mock_server.py) and its Swift harness.
        .target(name: "MockCloudServer", dependencies: ["CloudHTTPSCore", "TandemBridge", "TandemPluginKit", "PluginFixtures"],
                path: "Tests/MockCloudServer", exclude: ["mock_server.py"]),
        .testTarget(name: "CloudHTTPSTests",
                    dependencies: ["CloudHTTPSCore", "JSONModel", "TandemBridge", "TandemPluginKit", "CTandemABI", "MockCloudServer", "PluginFixtures"],
                    path: "Tests/CloudHTTPSTests"),
        // tandem.cloud through the host as a user runs it: the routing rows, `tandem respond`,
        // tools and guided output on the mock, the key kept out of every output.
        .testTarget(name: "CloudRoutingTests",
                    dependencies: ["Tandem", "GuidedJSON", "TandemCLI", "CloudHTTPSCore", "MockCloudServer", "tandem-plugin-host", "PluginFixtures"],
                    path: "Tests/CloudRoutingTests"),
        // `tandem serve`'s request mapping, error statuses, access rules and backend queue (the
        // HTTP suite through the real openai client is Tests/ServeClient, run by make test).
        .testTarget(name: "TandemServerTests", dependencies: ["TandemServer", "Tandem", "GuidedJSON", "JSONModel"], path: "Tests/TandemServerTests"),
        .testTarget(name: "LlamaEngineTests", dependencies: ["LlamaEngine", "LlamaFuzz", "TandemLlama"], path: "Tests/LlamaEngineTests"),
        // The installed tandem.llama plugin through the real loader, on the real model; and through
        // the built `tandem` binary, for what depends on the config file's folder; hostile model
        // files through the plugin's load and the built `tandem-llama inspect`; the quote
        // library's novelty and taste decisions on the real encoder's vectors.
        .testTarget(name: "LlamaRunnerPluginTests", dependencies: ["Tandem", "GuidedJSON", "JSONModel", "TandemLlama", "TandemCLI", "LlamaFuzz", "tandem-llama", "tandem-plugin-host", "PluginFixtures", "QuoteLibrary"],
                    path: "Tests/LlamaRunnerPluginTests"),
    ]
)
