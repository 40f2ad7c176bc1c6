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
            print(String(format: "  %4d %-28@ %-5@ %-16@ %10d bytes at %d", i, t.name as NSString, t.type.name as NSString, dims as NSString, t.byteCount, t.fileOffset))
        }
    }
}
