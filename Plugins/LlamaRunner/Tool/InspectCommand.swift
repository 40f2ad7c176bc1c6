import Foundation
import LlamaEngine

/// `inspect FILE`: metadata and tensor table, like llama.cpp's gguf-dump.
enum InspectCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        try args.finish()
        let file = try GGUFFile(path: path)
        print("GGUF v\(file.version), \(file.metadata.count) metadata entries, \(file.tensors.count) tensors, alignment \(file.alignment), data at byte \(file.dataOffset)")
        for key in file.metadataKeys {
            print("  \(key) = \(file.metadata[key]!.summary)")
        }
        for (i, t) in file.tensors.enumerated() {
            let dims = t.dimensions.map(String.init).joined(separator: " x ")
            func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
            print(String(format: "  %4d ", i) + pad(t.name, 28) + " " + pad(t.type.name, 5) + " " + pad(dims, 16) + String(format: " %10d bytes at %d", t.byteCount, t.fileOffset))
        }
    }
}
