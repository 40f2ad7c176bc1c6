// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem-llama", targets: ["tandem-llama"]),
    ],
    targets: [
        // The C ABI shared by the host and every plugin: one header, nothing else.
        .target(name: "CTandemABI", path: "Sources/CTandemABI"),

        // The local runner's engine: GGUF, tensors, tokenizers, templates, forward pass, sampling.
        .target(name: "LlamaEngine", dependencies: ["LlamaKernels"], path: "Plugins/LlamaRunner/Engine"),
        // x86 intrinsics kernels for the engine, chosen at run time (Swift SIMD is the fallback).
        .target(name: "LlamaKernels", path: "Plugins/LlamaRunner/Kernels"),
        // The runner's companion tool (inspect, complete, score, bench), built from the same engine.
        .executableTarget(name: "tandem-llama", dependencies: ["LlamaEngine"], path: "Plugins/LlamaRunner/Tool"),
        .testTarget(name: "LlamaEngineTests", dependencies: ["LlamaEngine"], path: "Tests/LlamaEngineTests"),
    ]
)
