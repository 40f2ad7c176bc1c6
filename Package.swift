// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [
        // Plugins: each a dynamic library, installed into plugins.d/ by `make plugins`.
        .library(name: "TandemFake", type: .dynamic, targets: ["TandemFake"]),
        .executable(name: "tandem-llama", targets: ["tandem-llama"]),
        .library(name: "TandemLlama", type: .dynamic, targets: ["TandemLlama"]),
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
        .target(name: "LlamaEngine", dependencies: ["LlamaKernels"], path: "Plugins/LlamaRunner/Engine"),
        // x86 intrinsics kernels for the engine, chosen at run time (Swift SIMD is the fallback).
        .target(name: "LlamaKernels", path: "Plugins/LlamaRunner/Kernels"),
        // The runner's companion tool (inspect, complete, score, bench), built from the same engine.
        .executableTarget(name: "tandem-llama", dependencies: ["LlamaEngine"], path: "Plugins/LlamaRunner/Tool"),
        .testTarget(name: "LlamaEngineTests", dependencies: ["LlamaEngine"], path: "Tests/LlamaEngineTests"),
        // The local runner plugin (plugin id tandem.llama): a thin adapter from the ABI to the engine.
        .target(name: "TandemLlama", dependencies: ["TandemPluginKit", "LlamaEngine", "GuidedJSON"],
                path: "Plugins/LlamaRunner/Plugin"),
        // The installed tandem.llama plugin through the real loader, on the real model.
        .testTarget(name: "LlamaRunnerPluginTests", dependencies: ["Tandem", "GuidedJSON", "TandemLlama"], path: "Tests/LlamaRunnerPluginTests"),

        // Guided generation: JSON values, schemas, Generable, constrained-decoding automaton and token mask.
        .target(name: "GuidedJSON", path: "Sources/GuidedJSON", exclude: ["README.md"]),
        .testTarget(name: "GuidedJSONTests", dependencies: ["GuidedJSON"], path: "Tests/GuidedJSONTests"),
    ]
)
