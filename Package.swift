// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [
        // The cloud backend plugin, installed as plugins.d/tandem.cloud.so.
        .library(name: "CloudHTTPS", type: .dynamic, targets: ["CloudHTTPSPlugin"]),
    ],
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

        // libcurl, with typed wrappers for its variadic functions.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The cloud backend's logic (transport, SSE, Gemini and OpenAI dialects, errors, retries,
        // availability), a library so tests and the bench import it directly.
        .target(name: "CloudHTTPSCore", dependencies: ["CCurl", "CTandemABI", "TandemBridge", "TandemPluginKit"], path: "Plugins/CloudHTTPS/Core"),
        // The cloud plugin's entry point: a thin shell around CloudHTTPSCore.
        .target(name: "CloudHTTPSPlugin", dependencies: ["CloudHTTPSCore", "CTandemABI", "TandemBridge", "TandemPluginKit"], path: "Plugins/CloudHTTPS/Plugin"),
        // `make bench-cloud`: event latency against the mock server and SSE + JSON parse throughput.
        .executableTarget(name: "cloud-bench", dependencies: ["CloudHTTPSCore", "TandemBridge"], path: "Plugins/CloudHTTPS/Bench"),
        .testTarget(
            name: "CloudHTTPSTests", dependencies: ["CloudHTTPSCore", "TandemBridge", "TandemPluginKit", "CTandemABI"],
            path: "Tests/CloudHTTPSTests", exclude: ["MockServer"]),
    ]
)
