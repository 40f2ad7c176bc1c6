// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    products: [],
    targets: [
        // The C ABI shared by the host and every plugin: one header, nothing else.
        .target(name: "CTandemABI", path: "Sources/CTandemABI"),

        // The local runner's engine: GGUF, tensors, tokenizers, templates, forward pass, sampling.
        .target(name: "LlamaEngine", path: "Plugins/LlamaRunner/Engine"),

        // Guided generation: JSON values, schemas, Generable, constrained-decoding automaton and token mask.
        .target(name: "GuidedJSON", path: "Sources/GuidedJSON", exclude: ["README.md"]),
        .testTarget(name: "GuidedJSONTests", dependencies: ["GuidedJSON"], path: "Tests/GuidedJSONTests"),
    ]
)
